// Ricochet Robots' lesson ("How to play"): the two examples of its rules text (seed 000) on the
// classic tiles — "a different robot is moved to serve as obstacle" (the red robot twice, then the
// green, active robot three times), and "the green robot could move directly to the target space,
// but since this is not allowed, another route is chosen" — each route the solver's optimum, drawn
// from the engine's paths (howto.json, held to the engine by tests/test_howto.py).

import { t, chipName, colorName } from "../../i18n.js";
import { lessonData, moveSteps } from "../../lesson-grid.js";
import { RobotsBoard } from "./board.js";

export const howTo = {
  async open(wrap) {
    const data = await lessonData(import.meta.url);
    const board = new RobotsBoard(wrap);
    const dir = (d) => t(`dir.${d}`);
    const steps = [];
    data.examples.forEach((ex, e) => {
      const view = (robots) => ({
        board: data.board, robots, config: { rules: data.rules },
        round: { target: ex.target, active_color: ex.active, chip: ex.chip, start: ex.robots },
      });
      const n = ex.moves.length;
      steps.push(...moveSteps(board, {
        start: ex.robots, moves: ex.moves, view,
        intro: () => (e === 0
          ? t("how.rr.goal", { chip: chipName(ex.chip), robot: colorName(ex.active) })
          : t("how.rr.ricochet", { robot: colorName(ex.active), dir: dir(ex.direct) })),
        text(m, k) {
          const params = { k, robot: colorName(m.robot), dir: dir(m.direction), n };
          const end = m.path.steps.at(-1).cell;
          const onTarget = end[0] === ex.target[0] && end[1] === ex.target[1];
          if (k === n) return t("how.rr.last", params);
          if (m.robot !== ex.active) return t("how.rr.helper", params);
          return t(onTarget ? "how.rr.through" : "how.rr.active", params);
        },
      }));
    });
    steps.push({ text: () => t("how.rr.bid"), show: () => {} });
    return steps;
  },
};
