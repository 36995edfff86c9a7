// Micro Robots' solo puzzles in the trainer: a route from the start space to the target
// (through the intermediate target first, in the experts' style), played in the browser
// with no network (the server checks the attempt again).

import { t } from "../../i18n.js";
import { MicroBoardView, dice, spaceName } from "./board.js";

/** Spaces the robot may move to from [row, col]: same row or column, same colour or number. */
export function microMoves(cells, [r, c]) {
  const here = cells[r][c], out = [];
  for (let k = 0; k < 6; k++) {
    for (const [rr, cc] of [[r, k], [k, c]]) {
      if (rr === r && cc === c) continue;
      const sp = cells[rr][cc];
      if (sp.color === here.color || sp.number === here.number) out.push([rr, cc]);
    }
  }
  return out;
}

/** "solved" when the route [start, …] ends on the target, through the via space first when there is one. */
export function microStatus(p, route) {
  const at = route.at(-1);
  if (at[0] !== p.target[0] || at[1] !== p.target[1]) return null;
  if (p.via && !route.slice(1, -1).some((c) => c[0] === p.via[0] && c[1] === p.via[1])) return "no_via";
  return "solved";
}

export const trainer = {
  board: (wrap, input) => new MicroBoardView(wrap, { send: (_type, { to }) => input(to) }),
  empty: { board: null },
  start(p, board) {
    const cells = p.puzzle.cells;
    const space = ([r, c]) => spaceName(cells[r][c]);
    let route = [p.puzzle.start];
    const view = () => {
      const at = route.at(-1);
      return { board: cells, robot: at, round: { start: p.puzzle.start, target: p.puzzle.target, via: p.puzzle.via || null, route, moves: microMoves(cells, at) } };
    };
    return {
      moves: () => route.slice(1),
      play(to) {
        route = [...route, to];
        board.render(view());
        return microStatus(p.puzzle, route) === "solved" ? { solved: true } : {};
      },
      undo() { if (route.length > 1) route = route.slice(0, -1); board.render(view()); },
      reset() { route = [p.puzzle.start]; board.render(view()); },
      redraw() { board.render(view()); },
      async showSolution(paths, animate) {
        if (!animate) { board.render({ ...view(), round: { ...view().round, route: paths } }); return; }
        route = [paths[0]];
        board.render(view());
        for (const cell of paths.slice(1)) {
          await new Promise((r) => setTimeout(r, 450));
          route = [...route, cell];
          board.render(view());
        }
      },
      goal() {
        const { start, target, via } = p.puzzle;
        return [dice(cells[target[0]][target[1]], 22), " ", via ? t("tr.goal.micro_via", { start: space(start), target: space(target), via: space(via) })
          : t("tr.goal.micro", { start: space(start), target: space(target) })];
      },
      hint(level, data) {
        if (level === 2) return t("tr.hint.2.micro", { kinds: data.kinds.map((k) => t(`tr.kind.${k}`)).join(", ") });
        if (level === 3) return t("tr.hint.3.micro", { space: space(data.first) });
        return t("tr.hint.4.text", { moves: data.solution.map(space).join(" → ") });
      },
      keys: "tr.keys.micro",
    };
  },
};
