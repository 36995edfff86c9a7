// The steps of a lesson on the engine's grid board (Ricochet Robots, Ricochet Pyramids: howto.js):
// a position and the moves of its rules text's example, each with the path the engine made of it
// (the game's howto.json), drawn one by one — the robot slides along its path, the moves so far
// stay drawn, numbered.

/** A lesson's file beside a game's module (its howto.json), as JSON. */
export async function lessonData(moduleUrl) {
  const res = await fetch(new URL("./howto.json", moduleUrl));
  if (!res.ok) throw new Error(`howto.json: ${res.status}`);
  return res.json();
}

/**
 * The steps of one example on ``board`` (a GridBoard): its start, then each move.
 *   start — the robots [{color, cell}]; moves — [{robot (a colour), direction, path}];
 *   view(robots) — the state the board draws with those robots;
 *   intro() — the words of the start; text(move, k, robotsBefore) — the words of move k (1-based).
 */
export function moveSteps(board, { start, moves, view, intro, text }) {
  const states = [start.map((r) => ({ color: r.color, cell: [...r.cell] }))];
  for (const m of moves) {
    const prev = states.at(-1);
    const i = prev.findIndex((r) => r.color === m.robot);
    states.push(prev.map((r, k) => (k === i ? { color: r.color, cell: [...m.path.steps.at(-1).cell] } : r)));
  }
  const paths = (k) => moves.slice(0, k).map((m) => m.path);
  function draw(k, animate) {
    if (animate && k > 0) {
      board.render(view(states[k - 1]));
      board.showPaths(paths(k - 1), start);
      board.animate(moves[k - 1].path);
      board.setRobots(states[k]);
      board.idle().then(() => board.showPaths(paths(k), start));
    } else {
      board.render(view(states[k]));
      board.showPaths(paths(k), start);
    }
  }
  return [
    { text: intro, show: () => draw(0, false) },
    ...moves.map((m, j) => ({ text: () => text(m, j + 1, states[j]), show: (animate) => draw(j + 1, animate) })),
  ];
}
