// Micro Robots' board: 6×6 spaces in their colours, each with its number and
// the first letter of its colour (readable without colours), the robot, the
// victory point chip on the target, the intermediate target (experts) and the
// demonstration's route.  The announcer moves by tapping a highlighted space,
// or with the arrow keys (the next allowed space that way) and Enter.

import { el, title, r2 } from "../../svg.js";
import { t, colorName, colorLetter, getLang } from "../../i18n.js";

export const CELL = 56;
export const SPACE_COLORS = {
  blue: "#2f6fd6", yellow: "#f2c500", green: "#2e9e44", red: "#d7302a", pink: "#e25fb3", white: "#f6f3ea",
};
const INK = { blue: "#fff", yellow: "#222", green: "#fff", red: "#fff", pink: "#fff", white: "#222" };
// A pattern per colour too, so two colours never differ by hue alone.
const PATTERN = { blue: "dots", yellow: "none", green: "stripes", red: "none", pink: "cross", white: "none" };

/** A space's name as the seed says it ("1 pink"), translated. */
export function spaceName(sp) { return t("mr.space", { n: sp.number, color: colorName(sp.color) }); }

/** The two dice showing a space: the colour die and the number die (a small SVG). */
export function dice(sp, size = 30, rolling = false) {
  const svg = el("svg", { viewBox: "0 0 64 30", width: size * 2.1, height: size, class: `dice${rolling ? " rolling" : ""}`, role: "img", "aria-label": spaceName(sp) });
  svg.append(el("rect", { x: 1, y: 1, width: 28, height: 28, rx: 6, fill: SPACE_COLORS[sp.color], stroke: "#333", "stroke-width": 1.5, class: "die die-color" }));
  const letter = el("text", { x: 15, y: 20, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: INK[sp.color] });
  letter.textContent = colorLetter(sp.color);
  svg.append(letter, el("rect", { x: 35, y: 1, width: 28, height: 28, rx: 6, fill: "#fff", stroke: "#333", "stroke-width": 1.5, class: "die die-number" }));
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[sp.number] || [];
  for (const [px, py] of pips) svg.append(el("circle", { cx: 35 + px * 7, cy: 1 + py * 7, r: 2.6, fill: "#222" }));
  return svg;
}

export class MicroBoardView {
  constructor(container, handlers = {}) {
    this.container = container;
    this.handlers = handlers;
    this.view = null;
    this.interactive = false;
    this.focus = null;
    this.queue = Promise.resolve();
    this.svg = el("svg", { class: "board-svg micro-board", role: "group", "aria-roledescription": "board", viewBox: `-4 -4 ${6 * CELL + 8} ${6 * CELL + 8}` });
    this.layers = {};
    for (const name of ["spaces", "marks", "route", "robot", "moves"]) {
      this.layers[name] = el("g", { class: `layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    container.replaceChildren(this.svg);
    this.svg.addEventListener("click", (e) => {
      const node = e.target.closest?.(".move-to");
      if (node && this.interactive) this._go(node.dataset.cell.split(",").map(Number));
    });
    this.svg.addEventListener("keydown", (e) => {
      const node = e.target.closest?.(".move-to");
      if (node && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); this._go(node.dataset.cell.split(",").map(Number)); }
    });
  }

  _go(cell) { this.handlers.send?.("move_robot", { to: cell }); }

  render(view) {
    this.view = view;
    const board = view.board;
    const key = JSON.stringify([board, getLang()]);  // the spaces' letters and names are the page's language
    if (board && key !== this.boardKey) { this.boardKey = key; this._drawSpaces(board); }
    if (!board) {
      // Before the start the sections are not laid yet: the 6×6 spaces, blank.
      for (const g of Object.values(this.layers)) g.replaceChildren();
      this.boardKey = null;
      this.robotNode = null;
      for (let k = 0; k < 36; k++) {
        this.layers.spaces.append(el("rect", { class: "space-blank", x: (k % 6) * CELL + 1.5, y: Math.floor(k / 6) * CELL + 1.5,
          width: CELL - 3, height: CELL - 3, rx: 7, fill: "#e6dfcf", stroke: "#bdb6a6", "stroke-width": 1.5 }));
      }
      return;
    }
    this._drawMarks(view);
    this._drawRoute(view.round?.route || []);
    this._drawRobot(view.robot);
    this._drawMoves();
  }

  _drawSpaces(board) {
    const g = this.layers.spaces;
    g.replaceChildren();
    const defs = el("defs");
    defs.append(
      el("pattern", { id: "mr-dots", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, el("circle", { cx: 4, cy: 4, r: 1.4, fill: "#fff", "fill-opacity": 0.45 })),
      el("pattern", { id: "mr-stripes", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, el("rect", { x: 0, y: 0, width: 3, height: 8, fill: "#fff", "fill-opacity": 0.25 })),
      el("pattern", { id: "mr-cross", width: 10, height: 10, patternUnits: "userSpaceOnUse" }, el("path", { d: "M0 5 H10 M5 0 V10", stroke: "#fff", "stroke-opacity": 0.35, "stroke-width": 1.5 })));
    g.append(defs);
    board.forEach((row, r) => row.forEach((sp, c) => {
      const x = c * CELL, y = r * CELL;
      const cell = el("g", { class: `space space-${sp.color}`, "data-cell": `${r},${c}` }, title(spaceName(sp)),
        el("rect", { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, rx: 7, fill: SPACE_COLORS[sp.color], stroke: "#3b372f", "stroke-width": 1.5 }));
      if (PATTERN[sp.color] !== "none") cell.append(el("rect", { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, rx: 7, fill: `url(#mr-${PATTERN[sp.color]})` }));
      const num = el("text", { x: x + CELL / 2, y: y + CELL / 2 + 9, "text-anchor": "middle", "font-size": 26, "font-weight": "bold", fill: INK[sp.color] });
      num.textContent = String(sp.number);
      const letter = el("text", { x: x + 8, y: y + 15, "font-size": 11, "font-weight": "bold", fill: INK[sp.color], "fill-opacity": 0.85 });
      letter.textContent = colorLetter(sp.color);
      cell.append(num, letter);
      g.append(cell);
    }));
  }

  _center([r, c]) { return [c * CELL + CELL / 2, r * CELL + CELL / 2]; }

  _drawMarks(view) {
    const g = this.layers.marks;
    g.replaceChildren();
    const rnd = view.round;
    if (!rnd) return;
    const [sx, sy] = this._center(rnd.start);
    g.append(el("circle", { class: "start-chip", cx: sx, cy: sy, r: CELL * 0.4, fill: "none", stroke: "#222", "stroke-width": 2.5, "stroke-dasharray": "5 4" }, title(t("mr.start"))));
    if (rnd.via) {
      const [vx, vy] = this._center(rnd.via);
      g.append(el("rect", { class: "via", x: vx - CELL / 2 + 4, y: vy - CELL / 2 + 4, width: CELL - 8, height: CELL - 8, rx: 6, fill: "none", stroke: "#111", "stroke-width": 3, "stroke-dasharray": "3 3" }, title(t("mr.via"))));
    }
    const [tx, ty] = this._center(rnd.target);
    // The victory point chip: a clear disc (the number shows through) with a star at its rim.
    g.append(el("g", { class: "victory-chip" }, title(t("mr.target")),
      el("circle", { cx: tx, cy: ty, r: CELL * 0.44, fill: "#fff", "fill-opacity": 0.22, stroke: "#111", "stroke-width": 3.5 }),
      el("circle", { cx: tx + CELL * 0.3, cy: ty - CELL * 0.3, r: CELL * 0.15, fill: "#fff", stroke: "#111", "stroke-width": 1.5 }),
      el("path", { d: star(tx + CELL * 0.3, ty - CELL * 0.3, CELL * 0.12), fill: "#111" })));
  }

  _drawRoute(route) {
    const g = this.layers.route;
    g.replaceChildren();
    if (route.length < 2) return;
    const pts = route.map((c) => this._center(c).map(r2).join(",")).join(" ");
    g.append(el("polyline", { class: "route", points: pts, fill: "none", stroke: "#111", "stroke-width": 4, "stroke-opacity": 0.55, "stroke-linejoin": "round", "stroke-dasharray": "1 7", "stroke-linecap": "round" }));
    route.slice(1).forEach((c, k) => {
      const [x, y] = this._center(c);
      const n = el("text", { x: x + CELL / 2 - 9, y: y + CELL / 2 - 6, "text-anchor": "middle", "font-size": 12, "font-weight": "bold", fill: "#111", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" });
      n.textContent = String(k + 1);
      g.append(n);
    });
  }

  _drawRobot(cell) {
    const g = this.layers.robot;
    if (!cell) { g.replaceChildren(); this.robotNode = null; return; }
    const [x, y] = this._center(cell);
    if (!this.robotNode) {
      // The robot is transparent in the box too: the space's number shows through it.
      this.robotNode = el("g", { class: "robot micro-robot", id: "robot-micro" }, title(t("mr.robot")),
        el("circle", { cx: 0, cy: 0, r: CELL * 0.36, fill: "#dff0ff", "fill-opacity": 0.35, stroke: "#102a43", "stroke-width": 4 }),
        el("circle", { cx: 0, cy: 0, r: CELL * 0.36, fill: "none", stroke: "#fff", "stroke-width": 1.5, "stroke-opacity": 0.9 }),
        el("path", { d: `M${-CELL * 0.2},${CELL * 0.36} L0,${CELL * 0.5} L${CELL * 0.2},${CELL * 0.36}`, fill: "#102a43" }));
      g.replaceChildren(this.robotNode);
    }
    const from = this.robotAt;
    this.robotAt = cell;
    if (from && (from[0] !== cell[0] || from[1] !== cell[1]) && !matchMedia?.("(prefers-reduced-motion: reduce)").matches) {
      const [fx, fy] = this._center(from);
      this.queue = this.queue.then(() => new Promise((resolve) => {
        const t0 = performance.now(), ms = 350;
        const frame = (now) => {
          const f = Math.min(1, (now - t0) / ms), e = 1 - (1 - f) * (1 - f);
          this.robotNode.setAttribute("transform", `translate(${r2(fx + (x - fx) * e)},${r2(fy + (y - fy) * e)})`);
          if (f < 1) requestAnimationFrame(frame); else resolve();
        };
        requestAnimationFrame(frame);
      }));
    } else this.robotNode.setAttribute("transform", `translate(${x},${y})`);
  }

  _drawMoves() {
    const g = this.layers.moves;
    g.replaceChildren();
    const moves = this.view?.round?.moves || [];
    if (!this.interactive) return;
    for (const c of moves) {
      const [r, col] = c;
      const sp = this.view.board[r][col];
      const node = el("g", { class: "move-to", "data-cell": `${r},${col}`, role: "button", tabindex: 0, "aria-label": t("mr.move_to", { space: spaceName(sp) }) },
        el("rect", { x: col * CELL + 4, y: r * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 6, fill: "#fff", "fill-opacity": 0.01, stroke: "#111", "stroke-width": 3, "stroke-dasharray": "6 3" }));
      g.append(node);
    }
  }

  setInteractive(on) {
    if (on === this.interactive) return;
    this.interactive = on;
    this._drawMoves();
  }

  /** Arrow keys: focus the next allowed space that way; Enter moves there. */
  handleKey(e) {
    if (!this.interactive) return false;
    const dir = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!dir) return false;
    const robot = this.view.robot;
    const at = document.activeElement?.closest?.(".move-to")?.dataset.cell.split(",").map(Number) || robot;
    const options = (this.view.round?.moves || []).filter(([r, c]) =>
      dir[0] ? c === robot[1] && Math.sign(r - at[0]) === dir[0] : r === robot[0] && Math.sign(c - at[1]) === dir[1])
      .sort((a, b) => Math.abs(a[0] - at[0]) + Math.abs(a[1] - at[1]) - (Math.abs(b[0] - at[0]) + Math.abs(b[1] - at[1])));
    if (!options.length) return true;
    this.svg.querySelector(`.move-to[data-cell="${options[0].join(",")}"]`)?.focus();
    return true;
  }
}

function star(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 10; k++) {
    const a = -Math.PI / 2 + (k * Math.PI) / 5, rr = k % 2 ? r * 0.45 : r;
    pts.push(`${r2(cx + rr * Math.cos(a))},${r2(cy + rr * Math.sin(a))}`);
  }
  return `M${pts.join(" L")} Z`;
}
