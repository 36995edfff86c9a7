// Micro Robots' lesson ("How to play"): its rules text's example (seed 002) on the board as printed —
// "'1 pink' is the starting space. The target space is '2 white' … you have three possibilities for
// your first move … He moves the robot from '1 pink' to '6 pink'; after that, '6 white', '6 red' and
// '2 red' follow. From there, he reaches the '2 white' target space. He needed five moves overall."
// (howto.json, held to the engine by tests/test_howto.py).

import { t } from "../../i18n.js";
import { MicroBoardView, spaceName } from "./board.js";

export const howTo = {
  async open(wrap) {
    const res = await fetch(new URL("./howto.json", import.meta.url));
    if (!res.ok) throw new Error(`howto.json: ${res.status}`);
    const data = await res.json();
    const board = new MicroBoardView(wrap);
    const space = ([r, c]) => data.board[r][c];
    const name = (cell) => spaceName(space(cell));
    const view = (k, moves = []) => ({
      board: data.board, robot: data.route[k],
      round: { start: data.start, target: data.target, via: null, route: data.route.slice(0, k + 1), moves },
    });
    const draw = (k, moves = []) => { board.render(view(k, moves)); board.setInteractive(moves.length > 0); };
    const steps = [
      { text: () => t("how.mr.goal", { start: name(data.start), target: name(data.target) }), show: () => draw(0) },
      { text: () => t("how.mr.first", { start: name(data.start), moves: data.first.map(name).join(", ") }), show: () => draw(0, data.first) },
    ];
    data.route.slice(1).forEach((cell, j) => {
      const from = space(data.route[j]), to = space(cell);
      const why = from.color === to.color ? "color" : "number";
      steps.push({ text: () => t(j === data.route.length - 2 ? "how.mr.last" : "how.mr.move", { k: j + 1, to: name(cell), why: t(`tr.kind.${why}`), n: data.route.length - 1 }),
        show: () => draw(j + 1) });
    });
    steps.push({ text: () => t("how.mr.announce", { n: data.route.length - 1 }), show: () => draw(data.route.length - 1) });
    return steps;
  },
};
