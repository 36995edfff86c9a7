// The trainer's part of the games played on the library's engine (Ricochet Robots,
// Ricochet Pyramids): their puzzles played in the browser (trainer-physics.js) on the
// game's grid board, the optimal solution animated, the hints in words.  A game gives
// its board, how a puzzle is drawn (its view) and how its goal is said.

import { t, colorName } from "./i18n.js";
import { gridPuzzle, replay, status } from "./trainer-physics.js";

const ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };

/**
 * A TrainerModule (games/index.js) of a game of the engine:
 *   Board — its board view (a GridBoard);
 *   view(puzzle, robots, pz) — the state the board draws (robots as played so far);
 *   goal(puzzle) — a picture and the words of the goal.
 */
export function gridTrainer({ Board, view, goal }) {
  return {
    board: (wrap, input) => new Board(wrap, { onMove: input }),
    empty: { board: null, robots: [] },
    start(p, board) {
      const pz = gridPuzzle(p.puzzle);
      let moves = [];
      const current = () => view(p, replay(pz, moves).robots, pz);
      const named = (i) => colorName(pz.robots[i].color);
      return {
        moves: () => moves,
        play(m) {
          const next = replay(pz, [...moves, [m.robot, m.direction]]);
          if (next.error) return { error: t(`tr.illegal.${next.error.reason}`, { robot: named(m.robot) }) };
          moves = [...moves, [m.robot, m.direction]];
          board.animate(next.paths.at(-1));
          board.setRobots(next.robots);
          const st = status(pz, next);
          if (st === "solved") return { solved: true };
          return st === "no_ricochet" ? { note: t("tr.no_ricochet") } : {};
        },
        undo() { moves = moves.slice(0, -1); board.render(current()); },
        reset() { moves = []; board.render(current()); },
        redraw() { board.render(current()); board.showPaths([]); },
        async showSolution(paths, animate) {
          board.showPaths(paths, pz.robots);
          if (!animate) return;
          moves = [];
          board.setRobots(pz.robots);
          let robots = pz.robots.map((r) => ({ ...r }));
          for (const path of paths) {
            robots = robots.map((r, i) => (i === path.robot ? { color: r.color, cell: path.steps.at(-1).cell } : r));
            board.animate(path);
            board.setRobots(robots);
          }
          await board.idle();
        },
        goal: () => goal(p),
        hint(level, data) {
          if (level === 2) return t("tr.hint.2.text", { robots: data.robots.map(colorName).join(", ") });
          if (level === 3) return t("tr.hint.3.text", { robot: named(data.first[0]), arrow: ARROWS[data.first[1]], dir: t(`dir.${data.first[1]}`) });
          return t("tr.hint.4.text", { moves: data.solution.map(([i, d]) => `${named(i)} ${ARROWS[d]}`).join(", ") });
        },
        keys: "tr.keys",
      };
    },
  };
}
