// A board of the library's engine (walls, targets, coloured diagonals, wall openings,
// towers) as SVG, drawn client-side from a game's public state (same look and classes as
// ricochet/svg.py), with robots that can be selected, moved (keys, swipe, on-board
// arrows, tap a cell in line) and animated along the paths the server broadcasts.
// The games played on the engine draw their boards with it (subclasses add their own
// pieces: a chip, towers); the SVG helpers of every board are svg.js.

import { t, colorName, colorLetter, chipName, getLang } from "./i18n.js";
import { el, title, r2 } from "./svg.js";

export const CELL = 40;
export const COLORS = {
  red: "#d62728", green: "#2ca02c", blue: "#1f5fd6", yellow: "#f2c500",
  silver: "#9aa0a6", transparent: "#ffffff", any: "#7b2cbf",
};
export const DARK = {
  red: "#8b1a1a", green: "#1b5e20", blue: "#0d3b8c", yellow: "#8a6d00",
  silver: "#5f6368", transparent: "#444444", any: "#4a148c",
};
const TEXT_ON = { yellow: "#000", silver: "#000", transparent: "#222", green: "#fff" };
const VORTEX = ["red", "green", "blue", "yellow"];
export const DIRS = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
export const centre = ([x, y]) => [(x + 0.5) * CELL, (y + 0.5) * CELL];
const BIT = { N: 1, E: 2, S: 4, W: 8 };

function polygon(cx, cy, r, sides, rot) {
  const pts = [];
  for (let k = 0; k < sides; k++) {
    const a = rot + (2 * Math.PI * k) / sides;
    pts.push(`${r2(cx + r * Math.cos(a))},${r2(cy + r * Math.sin(a))}`);
  }
  return pts.join(" ");
}

/** A colour's letter drawn at (x, y) (its baseline centre): colour is never the only cue. */
export function letterMark(color, x, y, size) {
  const text = el("text", {
    class: "color-letter", x: r2(x), y: r2(y), "text-anchor": "middle", "font-family": "sans-serif", "font-size": r2(size),
    "font-weight": "bold", fill: TEXT_ON[color] || "#fff", "pointer-events": "none", "aria-hidden": "true",
  });
  text.textContent = colorLetter(color);
  return text;
}

/** The shapes of a target symbol centred on (cx, cy), radius about r, with its colour's letter. */
export function symbol(color, sym, cx, cy, r) {
  const common = { fill: COLORS[color] || COLORS.any, stroke: DARK[color] || DARK.any, "stroke-width": 1.5 };
  const size = colorLetter(color).length > 1 ? r * 0.8 : r * 1.05;
  if (sym === "circle") return [el("circle", { cx, cy, r, ...common }), letterMark(color, cx, cy + size * 0.36, size)];
  if (sym === "triangle") {
    return [el("polygon", { points: polygon(cx, cy + r * 0.15, r * 1.1, 3, -Math.PI / 2), ...common }),
      letterMark(color, cx, cy + r * 0.15 + size * 0.4, size * 0.85)];
  }
  if (sym === "square") {
    const s = r * 1.6;
    return [el("rect", { x: cx - s / 2, y: cy - s / 2, width: s, height: s, ...common }), letterMark(color, cx, cy + size * 0.36, size)];
  }
  if (sym === "hexagon") return [el("polygon", { points: polygon(cx, cy, r * 1.05, 6, 0), ...common }), letterMark(color, cx, cy + size * 0.36, size)];
  // The cosmic vortex: four coloured wedges and a white swirl.
  const out = VORTEX.map((name, k) => {
    const a0 = -Math.PI / 2 + (k * Math.PI) / 2, a1 = a0 + Math.PI / 2;
    const d = `M${cx},${cy} L${r2(cx + r * Math.cos(a0))},${r2(cy + r * Math.sin(a0))} ` +
      `A${r},${r} 0 0 1 ${r2(cx + r * Math.cos(a1))},${r2(cy + r * Math.sin(a1))} Z`;
    return el("path", { d, fill: COLORS[name], stroke: DARK[name], "stroke-width": 1 });
  });
  out.push(el("path", {
    d: `M${cx},${cy} q${r2(r * 0.5)},${r2(-r * 0.6)} ${r2(r * 0.9)},${r2(-r * 0.1)} M${cx},${cy} q${r2(-r * 0.5)},${r2(r * 0.6)} ${r2(-r * 0.9)},${r2(r * 0.1)}`,
    fill: "none", stroke: "#fff", "stroke-width": 1.5, "stroke-linecap": "round",
  }));
  return out;
}

/**
 * The board of a state's `board` object. The server writes it with the one wire codec of
 * `ricochet.notation.wire` (the interchange format's board object: targets, diagonals and openings
 * as `{x, y, ...}`, optional keys left out); drawing wants cells as `[x, y]` and every list present.
 */
export function boardFromWire(d) {
  const at = (o) => [o.x, o.y];
  return {
    width: d.width, height: d.height, walls: d.walls, blocked: d.blocked || [], towers: d.towers || [],
    targets: (d.targets || []).map((t) => ({ cell: at(t), color: t.color, symbol: t.symbol })),
    diagonals: (d.diagonals || []).map((g) => ({ cell: at(g), color: g.color, orientation: g.orientation })),
    openings: (d.openings || []).map((o) => ({ cell: at(o), side: o.side })),
  };
}

/** The polylines of one move path (broken at wraps), in board units. */
export function pathLines(path) {
  const lines = [[centre(path.start)]];
  let prev = path.start, heading = path.direction;
  for (const step of path.steps) {
    if (step.event && step.event.includes("wrap")) {
      const [px, py] = centre(prev), [dx, dy] = DIRS[heading];
      lines.at(-1).push([px + dx * CELL * 0.5, py + dy * CELL * 0.5]);
      const [cx, cy] = centre(step.cell);
      lines.push([[cx - dx * CELL * 0.5, cy - dy * CELL * 0.5]]);
    }
    lines.at(-1).push(centre(step.cell));
    prev = step.cell;
    heading = step.heading;
  }
  return lines;
}

export class GridBoard {
  /**
   * @param {HTMLElement} container
   * @param {{onSelect?: Function, onMove?: Function}} handlers
   *   onMove({robot, direction, stop?}) is called when the user asks for a move.
   */
  constructor(container, handlers = {}) {
    this.container = container;
    this.handlers = handlers;
    this.board = null;
    this.boardKey = null;
    this.goalKey = null;     // the goal drawn (_drawGoal)
    this.robots = [];        // latest known robots [{color, cell}]
    this.selected = null;    // robot index
    this.interactive = false;
    this.pending = new Map(); // robot index → animations queued
    this.queue = Promise.resolve();
    this.robotNodes = [];
    this.svg = el("svg", { class: "board-svg", role: "group", "aria-roledescription": "board" });
    this.layers = {};
    for (const name of ["static", "goal", "chip", "tokens", "paths", "robots", "arrows", "choices"]) {
      this.layers[name] = el("g", { class: `layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    container.replaceChildren(this.svg);
    this._bindPointer();
  }

  /** Redraw from a public state view (board, robots, round). */
  render(view) {
    const board = view.board;
    if (!board) {
      this.svg.setAttribute("viewBox", "0 0 640 640");
      for (const layer of Object.values(this.layers)) layer.replaceChildren();
      this.board = null;
      this.boardKey = null;
      this.goalKey = null;
      this.robotNodes = [];  // their layer was just emptied
      return;
    }
    const key = JSON.stringify([board, view.config?.rules?.openings, view.config?.rules?.diagonals, getLang()]);
    if (key !== this.boardKey) {
      this.board = boardFromWire(board);
      this.boardKey = key;
      this._drawStatic(this.board, view.config?.rules || {});
    }
    const rnd = view.round;
    this._drawGoal(rnd);
    this.drawRound(rnd, this.board);
    this._drawTokens(rnd?.start);
    this.setRobots(view.robots || []);
  }

  _drawStatic(b, rules) {
    const W = b.width * CELL, H = b.height * CELL;
    // A margin so the border walls, the opening chevrons and an arrow button at the edge are not clipped.
    this.svg.setAttribute("viewBox", `-18 -18 ${W + 36} ${H + 36}`);
    const g = this.layers.static;
    g.replaceChildren();
    g.append(el("rect", { class: "board", x: 0, y: 0, width: W, height: H, fill: "#f4f1e8" }));
    const grid = [];
    for (let i = 1; i < b.width; i++) grid.push(`M${i * CELL},0 V${H}`);
    for (let j = 1; j < b.height; j++) grid.push(`M0,${j * CELL} H${W}`);
    g.append(el("path", { class: "grid", d: grid.join(" "), stroke: "#d8d2c0", "stroke-width": 1, fill: "none" }));
    for (const [x, y] of b.blocked) {
      g.append(el("rect", { class: "blocked", x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: "#55524a" }));
    }
    for (const tg of b.targets) {
      const [cx, cy] = centre(tg.cell);
      const grp = el("g", { class: `target target-${tg.color} target-${tg.symbol}`, "data-cell": tg.cell.join(",") },
        title(chipName(tg)));
      for (const s of symbol(tg.color, tg.symbol, cx, cy, CELL * 0.3)) grp.append(s);
      g.append(grp);
    }
    if (rules.diagonals !== false) {
      for (const dg of b.diagonals) {
        const [x, y] = dg.cell;
        const x0 = x * CELL, y0 = y * CELL, x1 = x0 + CELL, y1 = y0 + CELL;
        const ends = dg.orientation === "/" ? [x0, y1, x1, y0] : [x0, y0, x1, y1];
        g.append(el("line", {
          class: `diagonal diagonal-${dg.color}`, "data-cell": dg.cell.join(","),
          x1: ends[0], y1: ends[1], x2: ends[2], y2: ends[3],
          stroke: COLORS[dg.color], "stroke-width": 5, "stroke-linecap": "round",
        }, title(colorName(dg.color))));
      }
    }
    const openings = new Set(rules.openings === false ? [] : b.openings.map((o) => `${o.cell[0]},${o.cell[1]},${o.side}`));
    const walls = el("g", { class: "walls", stroke: "#2b2b2b", "stroke-linecap": "square" });
    const gaps = [];
    for (let y = 0; y < b.height; y++) {
      for (let x = 0; x < b.width; x++) {
        const m = b.walls[y * b.width + x];
        const x0 = x * CELL, y0 = y * CELL, x1 = x0 + CELL, y1 = y0 + CELL;
        const sides = { N: [x0, y0, x1, y0], E: [x1, y0, x1, y1], S: [x0, y1, x1, y1], W: [x0, y0, x0, y1] };
        for (const side of ["N", "E", "S", "W"]) {
          const border = (side === "N" && y === 0) || (side === "S" && y === b.height - 1) ||
            (side === "W" && x === 0) || (side === "E" && x === b.width - 1);
          // Interior walls are stored on both cells: draw each once (E and S sides).
          if (!border && (side === "N" || side === "W")) continue;
          const s = sides[side];
          if (border && openings.has(`${x},${y},${side}`)) { gaps.push([x, y, side, s]); continue; }
          if (border || m & BIT[side]) {
            walls.append(el("line", { class: border ? "wall border" : "wall", x1: s[0], y1: s[1], x2: s[2], y2: s[3], "stroke-width": border ? 6 : 5 }));
          }
        }
      }
    }
    g.append(walls);
    for (const [x, y, side, s] of gaps) {
      // A gap in the border: dashed, with an outward chevron (as in svg.py).
      const [dx, dy] = DIRS[side];
      const mx = (s[0] + s[2]) / 2, my = (s[1] + s[3]) / 2, px = -dy, py = dx;
      const d = `M${mx + px * 6},${my + py * 6} L${mx + dx * 6},${my + dy * 6} L${mx - px * 6},${my - py * 6}`;
      g.append(el("g", { class: "opening", "data-cell": `${x},${y}`, "data-side": side },
        el("line", { x1: s[0], y1: s[1], x2: s[2], y2: s[3], stroke: "#2b2b2b", "stroke-width": 2, "stroke-dasharray": "4 4" }),
        el("path", { d, fill: "none", stroke: "#c2185b", "stroke-width": 2.5 })));
    }
  }

  _drawGoal(rnd) {
    const g = this.layers.goal;
    const color = rnd?.target ? rnd.active_color || "any" : null;
    // The same goal drawn again (every message of a round redraws the view) keeps its element, so
    // that its pulse (a few beats as it appears, style.css) is not started over at each bid.
    const key = color && JSON.stringify([rnd.number ?? null, rnd.target, color, this.goalTitle(rnd)]);
    if (key && key === this.goalKey) return;
    this.goalKey = key;
    g.replaceChildren();
    if (!key) return;
    const [x, y] = rnd.target;
    g.append(el("rect", {
      class: `goal goal-${color}`, x: x * CELL + 2, y: y * CELL + 2, width: CELL - 4, height: CELL - 4,
      fill: COLORS[color], "fill-opacity": 0.3, stroke: DARK[color], "stroke-width": 3, rx: 4,
    }, title(this.goalTitle(rnd))));
  }

  /** What the goal cell is called (its tooltip); games say it their way. */
  goalTitle(rnd) { return colorName(rnd.active_color || "any"); }

  /** A game's own pieces of the round (drawn in the "chip" layer); default: none. */
  drawRound(rnd, board) { this.layers.chip.replaceChildren(); }

  /** The square tokens: where each robot started the round (robots go back there on failure). */
  showTokens(start) { this._drawTokens(start); }

  _drawTokens(start) {
    const g = this.layers.tokens;
    g.replaceChildren();
    for (const r of start || []) {
      const [x, y] = r.cell;
      g.append(el("rect", {
        class: `token token-${r.color}`, x: x * CELL + 6, y: y * CELL + 6, width: CELL - 12, height: CELL - 12,
        fill: COLORS[r.color], "fill-opacity": r.color === "transparent" ? 0.15 : 0.35, stroke: DARK[r.color], "stroke-width": 1,
      }));
    }
  }

  /** Draw move paths (e.g. the optimal solution), numbered arrows in each robot's colour. */
  showPaths(paths, robots = this.robots) {
    const g = this.layers.paths;
    g.replaceChildren();
    for (const [k, p] of (paths || []).entries()) {
      const color = robots[p.robot]?.color || "any";
      const stroke = color === "silver" || color === "transparent" ? DARK[color] : COLORS[color];
      const grp = el("g", { class: `path path-${color}`, "data-move": k + 1 });
      const lines = pathLines(p);
      for (const pts of lines) {
        grp.append(el("polyline", {
          points: pts.map(([x, y]) => `${r2(x)},${r2(y)}`).join(" "), fill: "none", stroke,
          "stroke-width": 4, "stroke-opacity": 0.8, "stroke-linejoin": "round", "stroke-linecap": "round",
        }));
      }
      const [ex, ey] = lines.at(-1).at(-1);
      grp.append(el("circle", { cx: ex, cy: ey - 12, r: 8, fill: "#fff", stroke, "stroke-width": 2 }));
      const num = el("text", { x: ex, y: ey - 8, "text-anchor": "middle", "font-size": 11, "font-weight": "bold", fill: "#222" });
      num.textContent = String(k + 1);
      grp.append(num);
      g.append(grp);
    }
  }

  /** Robots at their latest known cells; robots with a queued animation stay where the animation is. */
  setRobots(robots) {
    this.robots = robots.map((r) => ({ color: r.color, cell: [...r.cell] }));
    // Rebuilt when the robots change (a new game) or the language does (their labels).
    if (this.robotNodes.length !== robots.length || this.robotLang !== getLang() ||
        this.robotNodes.some((n, i) => n.dataset.color !== robots[i].color)) {
      this.robotLang = getLang();
      this._buildRobots();
    }
    this.robots.forEach((r, i) => {
      if (!this.pending.get(i)) this._place(i, centre(r.cell));
    });
    this._drawArrows();
  }

  _buildRobots() {
    const g = this.layers.robots;
    g.replaceChildren();
    this.robotNodes = this.robots.map((r, i) => {
      const node = el("g", {
        class: `robot robot-${r.color}`, id: `robot-${r.color}`, "data-index": i, "data-color": r.color,
        role: "button", tabindex: this.interactive ? 0 : -1, "aria-label": t("demo.select", { robot: this.robotName(r.color) }),
      },
      el("circle", { class: "robot-halo", cx: 0, cy: 0, r: CELL * 0.47, fill: "none" }),
      ...this._robotBody(r.color));
      node.dataset.color = r.color;
      node.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.select(i); }
      });
      g.append(node);
      return node;
    });
    this.selected = null;
  }

  /** True when a robot can never enter ``cell`` (another robot is there). */
  stopsAt([x, y]) {
    return this.robots.some((r) => r.cell[0] === x && r.cell[1] === y);
  }

  /** The robot's name for people (games may show robots in other colours). */
  robotName(color) { return colorName(color); }

  /** The shapes of a robot, centred on (0, 0): a disc with its letter. */
  _robotBody(color) {
    const transparent = color === "transparent";
    const label = el("text", {
      x: 0, y: 6.5, "text-anchor": "middle", "font-family": "sans-serif", "font-size": 18,
      "font-weight": "bold", fill: TEXT_ON[color] || "#fff", "pointer-events": "none",
    });
    label.textContent = colorLetter(color);
    return [el("circle", {
      cx: 0, cy: 0, r: CELL * 0.36, fill: COLORS[color], "fill-opacity": transparent ? 0.35 : null,
      stroke: DARK[color], "stroke-width": 2.5, "stroke-dasharray": transparent ? "4 3" : null,
    }), label];
  }

  _place(i, [x, y]) {
    const node = this.robotNodes[i];
    if (node) node.setAttribute("transform", `translate(${r2(x)},${r2(y)})`);
  }

  setInteractive(on) {
    this.interactive = on;
    this.svg.classList.toggle("interactive", on);
    // Robots are buttons only while they can be moved: out of the tab order otherwise.
    for (const n of this.robotNodes) n.setAttribute("tabindex", on ? "0" : "-1");
    if (!on) this.select(null);
    this._drawArrows();
  }

  select(i) {
    if (i !== null && !this.interactive) return;
    this.selected = i;
    if (this.choosing) { this.choosing = null; this._drawChoices(); }
    this.robotNodes.forEach((n, k) => n.classList.toggle("selected", k === i));
    this._drawArrows();
    if (i !== null) this.handlers.onSelect?.(i);
  }

  /** Ask for a move of the selected robot (from keys, swipe or buttons). */
  move(direction, stop = null) {
    if (!this.interactive || this.selected === null) return false;
    const options = this.choices?.robot === this.selected ? this.choices[direction] || [] : null;
    if (!stop && options && options.length > 1) {
      // The transparent robot: at each wall or coloured diagonal it may stop/bounce or pass (+1 move).
      if (this.choosing?.direction === direction) this.choosing.k = (this.choosing.k + 1) % options.length;
      else this.choosing = { direction, options, k: 0 };
      this._drawChoices();
      return true;
    }
    if (!stop && options?.length === 1) stop = options[0].stop;
    this.choosing = null;
    this._drawChoices();
    const move = { robot: this.selected, direction };
    if (stop) move.stop = stop;
    this.handlers.onMove?.(move);
    return true;
  }

  /** The transparent robot's stops by direction, from the state (``round.choices``). */
  setChoices(choices) {
    this.choices = choices || null;
    if (this.choosing && !this.choices) { this.choosing = null; this._drawChoices(); }
  }

  _drawChoices() {
    const g = this.layers.choices;
    g.replaceChildren();
    const c = this.choosing;
    if (!c || !this.interactive) return;
    c.options.forEach((opt, k) => {
      const [x, y] = opt.stop;
      const extra = opt.cost - 1;
      const label = el("text", { x: x * CELL + CELL / 2, y: y * CELL + CELL / 2 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": "bold", fill: "#111" });
      label.textContent = extra ? `+${extra}` : "✓";
      const node = el("g", { class: `choice${k === c.k ? " current" : ""}`, role: "button", tabindex: 0, "data-cell": `${x},${y}`, "data-cost": opt.cost,
        "aria-label": t("demo.transparent.stop", { x, y, n: opt.cost }) },
      el("circle", { cx: x * CELL + CELL / 2, cy: y * CELL + CELL / 2, r: CELL * 0.42, fill: "#fff", "fill-opacity": 0.85, stroke: "#7b2cbf", "stroke-width": k === c.k ? 4 : 2 }), label);
      node.addEventListener("click", () => this.move(c.direction, opt.stop));
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.move(c.direction, opt.stop); } });
      g.append(node);
    });
    this.handlers.onChoose?.(c.options.length);
  }

  /** On-board arrow buttons around the selected robot (big enough to tap). */
  _drawArrows() {
    const g = this.layers.arrows;
    g.replaceChildren();
    if (!this.interactive || this.selected === null || !this.robots[this.selected] || this.pending.get(this.selected)) return;
    const cell = this.robots[this.selected].cell;
    const [cx, cy] = centre(cell);
    for (const [dir, [dx, dy]] of Object.entries(DIRS)) {
      // No arrow where the robot cannot go: it would only cover the robot standing there.
      if (this.stopsAt([cell[0] + dx, cell[1] + dy])) continue;
      const ax = cx + dx * CELL * 0.95, ay = cy + dy * CELL * 0.95;
      const px = -dy, py = dx;  // perpendicular
      const pts = [[ax + dx * 10, ay + dy * 10], [ax + px * 11 - dx * 5, ay + py * 11 - dy * 5], [ax - px * 11 - dx * 5, ay - py * 11 - dy * 5]];
      const btn = el("g", { class: `arrow arrow-${dir}`, role: "button", tabindex: 0, "data-dir": dir, "aria-label": t("demo.move", { dir: t(`dir.${dir}`) }) },
        el("circle", { cx: ax, cy: ay, r: 17, class: "arrow-bg" }),
        el("polygon", { points: pts.map((p) => p.map(r2).join(",")).join(" "), class: "arrow-head" }));
      btn.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.move(dir); } });
      g.append(btn);
    }
  }

  /** Board coordinates of a pointer event. */
  _point(e) {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  _cellAt([px, py]) {
    if (!this.board) return null;
    const x = Math.floor(px / CELL), y = Math.floor(py / CELL);
    if (x < 0 || y < 0 || x >= this.board.width || y >= this.board.height) return null;
    return [x, y];
  }

  _bindPointer() {
    let down = null;
    this.svg.addEventListener("pointerdown", (e) => {
      if (!this.interactive) return;
      down = { x: e.clientX, y: e.clientY, target: e.target, pt: this._point(e) };
    });
    this.svg.addEventListener("pointerup", (e) => {
      if (!this.interactive || !down) return;
      const start = down;
      down = null;
      const dx = e.clientX - start.x, dy = e.clientY - start.y;
      if (start.target.closest?.(".choice")) return;  // the choice's own click moves
      const robotNode = start.target.closest?.(".robot");
      const arrow = start.target.closest?.(".arrow");
      if (Math.hypot(dx, dy) > 24) {
        // A swipe: starting on a robot moves that robot, else the selected one.
        if (robotNode) this.select(Number(robotNode.dataset.index));
        const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "E" : "W") : (dy > 0 ? "S" : "N");
        this.move(dir);
        return;
      }
      if (arrow) { this.move(arrow.dataset.dir); return; }
      if (robotNode) { this.select(Number(robotNode.dataset.index)); return; }
      // A tap on a cell in line with the selected robot moves toward it (the
      // transparent robot also stops there); a tap on a robot's cell selects it.
      const cell = this._cellAt(start.pt);
      if (!cell) return;
      const hit = this.robots.findIndex((r) => r.cell[0] === cell[0] && r.cell[1] === cell[1]);
      if (hit >= 0) { this.select(hit); return; }
      if (this.selected === null) return;
      const [rx, ry] = this.robots[this.selected].cell;
      let dir = null;
      if (cell[0] === rx) dir = cell[1] < ry ? "N" : "S";
      else if (cell[1] === ry) dir = cell[0] < rx ? "W" : "E";
      if (dir) this.move(dir, this.robots[this.selected].color === "transparent" ? cell : null);
    });
    // Swipes must not scroll the page while demonstrating (CSS touch-action does the rest).
    this.svg.addEventListener("touchmove", (e) => { if (this.interactive) e.preventDefault(); }, { passive: false });
  }

  /** Arrow keys (call from a document keydown handler); returns true when handled. */
  handleKey(e) {
    if (!this.interactive) return false;
    if (this.choosing && (e.key === "Enter" || e.key === "Escape")) {
      const c = this.choosing;
      if (e.key === "Enter") return this.move(c.direction, c.options[c.k].stop);
      this.choosing = null;
      this._drawChoices();
      return true;
    }
    const map = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" };
    if (map[e.key]) return this.move(map[e.key]);
    // Number keys 1..6 select robots in order (handy on a keyboard).
    const n = Number(e.key);
    if (n >= 1 && n <= this.robots.length) { this.select(n - 1); return true; }
    return false;
  }

  /**
   * Animate one move path (as broadcast by the server); queued so moves play
   * in order.  The robot then snaps to its latest known cell.
   */
  animate(path) {
    const i = path.robot;
    this.pending.set(i, (this.pending.get(i) || 0) + 1);
    this._drawArrows();
    this.queue = this.queue.then(() => this._run(path)).catch(() => {}).then(() => {
      const left = (this.pending.get(i) || 1) - 1;
      this.pending.set(i, left);
      if (!left && this.robots[i]) this._place(i, centre(this.robots[i].cell));
      this._drawArrows();
    });
    return this.queue;
  }

  /** True while an animation is queued or running. */
  busy() { return [...this.pending.values()].some((n) => n > 0); }

  /** Wait for every queued animation. */
  idle() { return this.queue; }

  _run(path) {
    // Segments: cell centre to cell centre; a wrap runs out to the edge and
    // jumps in from the opposite edge.
    const lines = pathLines(path);
    const segs = [];
    for (const line of lines) {
      for (let k = 1; k < line.length; k++) segs.push([line[k - 1], line[k]]);
      segs.push(null);  // a jump between lines
    }
    segs.pop();
    const total = segs.reduce((s, sg) => s + (sg ? Math.hypot(sg[1][0] - sg[0][0], sg[1][1] - sg[0][1]) : 0), 0);
    const reduced = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    // Catch up when moves arrive faster than they animate.
    const backlog = [...this.pending.values()].reduce((a, b) => a + b, 0);
    const ms = reduced ? 0 : Math.min(900, 120 + (total / CELL) * 55) / (backlog > 1 ? 2 : 1);
    const node = this.robotNodes[path.robot];
    if (!node || ms === 0 || total === 0) return Promise.resolve();
    node.classList.add("moving");
    return new Promise((resolve) => {
      const t0 = performance.now();
      const frame = (now) => {
        const f = Math.min(1, (now - t0) / ms);
        const eased = 1 - (1 - f) * (1 - f);  // decelerate: robots have no brakes, but it reads better
        let dist = eased * total;
        let pos = segs.find((s) => s)?.[0] || centre(path.start);
        for (const sg of segs) {
          if (!sg) continue;
          const len = Math.hypot(sg[1][0] - sg[0][0], sg[1][1] - sg[0][1]);
          if (dist <= len) {
            const k = len ? dist / len : 1;
            pos = [sg[0][0] + (sg[1][0] - sg[0][0]) * k, sg[0][1] + (sg[1][1] - sg[0][1]) * k];
            dist = -1;
            break;
          }
          dist -= len;
          pos = sg[1];
        }
        this._place(path.robot, pos);
        if (f < 1) requestAnimationFrame(frame);
        else { node.classList.remove("moving"); resolve(); }
      };
      requestAnimationFrame(frame);
    });
  }
}
