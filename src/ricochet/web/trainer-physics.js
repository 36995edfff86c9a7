// The trainer's moves of the library's engine in the browser, so a loaded puzzle can be
// solved with no network: the same physics as ricochet/position.py (slide until blocked,
// coloured diagonals, wall openings, towers with the goal tower passable, no moving
// straight back, must ricochet).  The server checks every attempt again with the engine;
// this only plays.  (trainer-grid.js uses it for the games of the engine.)

const BIT = { N: 1, E: 2, S: 4, W: 8 };
export const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: "S", S: "N", E: "W", W: "E" };
const DEFLECT = {
  "/": { E: "N", N: "E", W: "S", S: "W" },
  "\\": { E: "S", S: "E", W: "N", N: "W" },
};
const DEFAULT_COLORS = ["red", "green", "blue", "yellow", "silver", "transparent"];
const key = ([x, y]) => `${x},${y}`;

/**
 * A Ricochet Robots or Pyramids puzzle from one object of the interchange
 * format: board, robots [{color, cell}], target, active (null: any robot),
 * rules {must_ricochet, no_straight_back}.
 */
export function gridPuzzle(p) {
  const colors = p.colors || DEFAULT_COLORS.slice(0, p.robots.length);
  return {
    width: p.width, height: p.height, walls: p.walls,
    blocked: new Set((p.blocked || []).map(key)),
    towers: new Set((p.towers || []).map(key)),
    diagonals: new Map((p.diagonals || []).map((d) => [key([d.x, d.y]), d])),
    openings: new Set((p.openings || []).map((o) => `${o.x},${o.y},${o.side}`)),
    robots: p.robots.map((cell, i) => ({ color: colors[i], cell: [...cell] })),
    target: [...p.target],
    active: p.any_robot ? null : p.active,
    rules: { must_ricochet: !!p.rules?.must_ricochet, no_straight_back: !!p.rules?.no_straight_back },
  };
}

/**
 * The board as the grid board draws it: the shape of a room's public state, which is the wire
 * format of the puzzle itself (targets, diagonals and openings as ``{x, y, …}``; the grid board
 * reads them with ``boardFromWire``).  It was converted twice once: 17 targets at NaN.
 */
export function boardView(p) {
  return {
    width: p.width, height: p.height, walls: p.walls, blocked: p.blocked || [],
    targets: p.targets || [], diagonals: p.diagonals || [], openings: p.openings || [],
  };
}

/**
 * Play moves [[robot, "N"], …] from the start: {robots, paths, error, turned}.
 * error: {move, reason} at the first illegal move (robots as before it).
 */
export function replay(pz, moves) {
  let robots = pz.robots.map((r) => ({ color: r.color, cell: [...r.cell] }));
  let last = null;
  const heading = new Map(), turned = new Set(), paths = [];
  for (const [k, [robot, dir]] of moves.entries()) {
    const res = slide(pz, robots, robot, dir, last);
    if (res.error) return { robots, paths, turned, error: { move: k, reason: res.error } };
    const prev = heading.get(robot);
    if (res.path.deflected || (prev && prev !== dir && prev !== OPPOSITE[dir])) turned.add(robot);
    heading.set(robot, res.path.heading);
    last = [robot, res.path.heading];
    robots = robots.map((r, i) => (i === robot ? { color: r.color, cell: res.path.end } : r));
    paths.push(res.path);
  }
  return { robots, paths, turned, error: null };
}

/** One move: {path} (the shape of Path.to_dict(), plus end/heading/deflected) or {error: reason}. */
export function slide(pz, robots, i, dir, last = null) {
  const robot = robots[i];
  if (!robot || !STEP[dir]) return { error: "robot" };
  if (pz.rules.no_straight_back && last && last[0] === i && last[1] === OPPOSITE[dir]) return { error: "reversal" };
  const taken = new Set(robots.filter((_, k) => k !== i).map((r) => key(r.cell)));
  const goal = key(pz.target);
  const blocks = (c) => taken.has(key(c)) || pz.blocked.has(key(c)) || (pz.towers.has(key(c)) && key(c) !== goal);
  let cell = robot.cell, heading = dir, deflected = false;
  const steps = [], seen = new Set([`${key(cell)},${heading}`]);
  for (;;) {
    let next = null, wrapped = false;
    if (pz.openings.has(`${cell[0]},${cell[1]},${heading}`)) {
      wrapped = true;
      next = heading === "E" ? [0, cell[1]] : heading === "W" ? [pz.width - 1, cell[1]]
        : heading === "S" ? [cell[0], 0] : [cell[0], pz.height - 1];
    } else if (!(pz.walls[cell[1] * pz.width + cell[0]] & BIT[heading])) {
      next = [cell[0] + STEP[heading][0], cell[1] + STEP[heading][1]];
    }
    if (!next || blocks(next)) break;
    let event = wrapped ? "wrap" : null;
    const dg = pz.diagonals.get(key(next));
    if (dg) {
      if (dg.color === robot.color) event = event ? `${event}+pass` : "pass";
      else { heading = DEFLECT[dg.orientation][heading]; deflected = true; event = event ? `${event}+deflect` : "deflect"; }
    }
    cell = next;
    steps.push(event ? { cell, heading, event } : { cell, heading });
    const state = `${key(cell)},${heading}`;
    if (seen.has(state)) return { error: "cycle" };
    seen.add(state);
  }
  if (!steps.length) return { error: "blocked" };
  return { path: { robot: i, start: robot.cell, direction: dir, steps, cost: 1, end: cell, heading, deflected } };
}

/**
 * Where the moves leave things: "solved", "no_ricochet" (on the target
 * without having turned) or null (not there yet).
 */
export function status(pz, played) {
  const i = played.robots.findIndex((r) => r.cell[0] === pz.target[0] && r.cell[1] === pz.target[1]);
  if (i < 0 || (pz.active !== null && i !== pz.active)) return null;
  if (pz.rules.must_ricochet && !played.turned.has(i)) return "no_ricochet";
  return "solved";
}
