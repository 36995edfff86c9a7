// Ricochet Pyramids' lesson ("How to play"): its rules text's worked example (seed 003) — "The red
// robot (r) wants to reach the goal tower (G) … One 5-move solution is to move y north …, r north …,
// y east …, y south …, r east" — on the seed's figure, each move the engine's path (howto.json,
// held to the engine by tests/test_howto.py).  The figure shows towers, not their colours: the goal
// is the red-on-yellow tower, the others take the other pairs.

import { t, colorName } from "../../i18n.js";
import { lessonData, moveSteps } from "../../lesson-grid.js";
import { PyramidsBoard, goalWords } from "./board.js";

export const howTo = {
  async open(wrap) {
    const data = await lessonData(import.meta.url);
    const board = new PyramidsBoard(wrap);
    const view = (robots) => ({
      towers: data.towers, robots,
      round: { target: data.target, goal: data.goal, active_color: data.goal.robot, start: data.robots },
    });
    const steps = moveSteps(board, {
      start: data.robots, moves: data.moves, view,
      intro: () => t("how.py.goal", goalWords(data.goal)),
      text: (m, k) => t(`how.py.${k}`, { robot: colorName(m.robot), dir: t(`dir.${m.direction}`) }),
    });
    steps.push({ text: () => t("how.py.bid"), show: () => {} });
    return steps;
  },
};
