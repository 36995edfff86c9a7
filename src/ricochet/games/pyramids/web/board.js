// Ricochet Pyramids' board as people see the real game from above: an 8×8
// chessboard, towers (a medium pyramid on a large one: two nested squares
// with their four faces), robots (small pyramids, with their letter), the
// goal tower ringed in the robot's colour.  Demonstrations use the shared
// grid board (keys, swipe, arrows, tap); in the lobby the host rearranges the
// towers by dragging one (or tapping it, then an empty square).

import { GridBoard, CELL, centre } from "../../gridboard.js";
import { el, title, r2 } from "../../svg.js";
import { t, colorName, colorLetter, getLang } from "../../i18n.js";

export const PCOLORS = {
  red: "#d62728", green: "#2ca02c", yellow: "#f2c500", blue: "#1f5fd6",
  purple: "#7b2cbf", orange: "#f28c28", cyan: "#17becf", white: "#fafafa",
};
export const PDARK = {
  red: "#7f1616", green: "#1b5e20", yellow: "#7a6100", blue: "#0d3b8c",
  purple: "#4a148c", orange: "#8f4500", cyan: "#0b6b75", white: "#6b6b6b",
};
const FILES = "abcdefgh";
const SIZE = 8;

/** A cell's chess name ("e4"): row 0 is the top, rank 8. */
export const cellName = ([x, y]) => `${FILES[x]}${SIZE - y}`;

/** A pyramid seen from above, centred on (cx, cy), side s: a square whose four faces meet at the apex. */
export function pyramid(color, cx, cy, s, cls = "pyramid") {
  const h = s / 2, x0 = r2(cx - h), y0 = r2(cy - h), x1 = r2(cx + h), y1 = r2(cy + h);
  const c = `${r2(cx)},${r2(cy)}`;
  return el("g", { class: cls },
    el("rect", { x: x0, y: y0, width: r2(s), height: r2(s), fill: PCOLORS[color] || "#999", stroke: PDARK[color] || "#333", "stroke-width": 1.5 }),
    // light from the north-west: the north face lit, south and east in shade
    el("polygon", { points: `${x0},${y0} ${c} ${x1},${y0}`, fill: "#fff", "fill-opacity": 0.28 }),
    el("polygon", { points: `${x1},${y0} ${c} ${x1},${y1}`, fill: "#000", "fill-opacity": 0.12 }),
    el("polygon", { points: `${x0},${y1} ${c} ${x1},${y1}`, fill: "#000", "fill-opacity": 0.24 }),
    el("path", { d: `M${x0},${y0} L${x1},${y1} M${x1},${y0} L${x0},${y1}`, stroke: PDARK[color] || "#333", "stroke-width": 1, "stroke-opacity": 0.55 }));
}

/** A tower's colours in letters, top on bottom ("J/R"): colour is never the only cue. */
function towerLetters(tw, cx, cy) {
  const text = el("text", { class: "color-letter", x: r2(cx), y: r2(cy + CELL * 0.36), "text-anchor": "middle", "font-size": 8.5, "font-weight": "bold",
    fill: "#111", stroke: "#fff", "stroke-width": 2.5, "paint-order": "stroke", "pointer-events": "none", "aria-hidden": "true" });
  text.textContent = `${colorLetter(tw.top)}/${colorLetter(tw.bottom)}`;
  return text;
}

/** A goal tree as a small standalone SVG: the small pyramid on the medium on the large. */
export function goalIcon(goal, size = 28, palette = null) {
  const svg = el("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "goal-icon", role: "img" });
  svg.append(pyramid(goal.bottom, 20, 20, 36, "large"), pyramid(goal.top, 20, 20, 24, "medium"),
    pyramid(palette?.[goal.robot] ?? goal.robot, 20, 20, 12, "small"));
  return svg;
}

export class PyramidsBoard extends GridBoard {
  constructor(container, handlers = {}) {
    super(container, handlers);
    this.palette = null;
    this.towers = [];
    this.picked = null;      // a tower's cell picked up by the host in the lobby
    this.onArrange = null;   // (from, to) => void while the host may arrange
    this._bindArrange();
  }

  display(color) { return this.palette?.[color] ?? color; }

  /** Robots, the board's edge and towers stop robots — all but the goal tower. */
  stopsAt(cell) {
    const [x, y] = cell;
    if (x < 0 || y < 0 || x >= SIZE || y >= SIZE || super.stopsAt(cell)) return true;
    const goal = this.goal;
    return !!this._towerAt(cell) && !(goal && goal[0] === x && goal[1] === y);
  }
  robotName(color) { return colorName(this.display(color)); }

  render(view) {
    this.palette = view.robot_palette || null;
    this.towers = view.towers || [];
    const key = JSON.stringify([this.towers, this.palette, getLang()]);
    if (key !== this.boardKey) {
      this.board = { width: SIZE, height: SIZE };
      this.boardKey = key;
      this._drawStatic();
    }
    this._drawGoal(view.round);
    this.layers.chip.replaceChildren();
    this._drawTokens(view.round?.start);
    this.setRobots(view.robots || []);
  }

  _drawStatic() {
    const W = SIZE * CELL;
    this.svg.setAttribute("viewBox", `-16 -4 ${W + 20} ${W + 20}`);
    const g = this.layers.static;
    g.replaceChildren();
    g.append(el("rect", { class: "board", x: 0, y: 0, width: W, height: W, fill: "#efe6d2" }));
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        if ((x + y) % 2) g.append(el("rect", { class: "dark-square", x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: "#c9bca0" }));
      }
      const rank = el("text", { x: -8, y: y * CELL + CELL / 2 + 4, "text-anchor": "middle", "font-size": 10, fill: "#6b665c" });
      rank.textContent = String(SIZE - y);
      const file = el("text", { x: y * CELL + CELL / 2, y: W + 12, "text-anchor": "middle", "font-size": 10, fill: "#6b665c" });
      file.textContent = FILES[y];
      g.append(rank, file);
    }
    g.append(el("rect", { x: 0, y: 0, width: W, height: W, fill: "none", stroke: "#5d5548", "stroke-width": 2 }));
    for (const tw of this.towers) {
      const [cx, cy] = centre(tw.cell);
      const name = t("py.tower", { top: colorName(tw.top), bottom: colorName(tw.bottom), cell: cellName(tw.cell) });
      const node = el("g", { class: `tower tower-${tw.top}-${tw.bottom}`, "data-cell": tw.cell.join(","), role: "img", "aria-label": name },
        title(name), pyramid(tw.bottom, cx, cy, CELL * 0.88, "large"), pyramid(tw.top, cx, cy, CELL * 0.6, "medium"),
        towerLetters(tw, cx, cy));
      if (tw.cell[0] === this.picked?.[0] && tw.cell[1] === this.picked?.[1]) node.classList.add("picked");
      g.append(node);
    }
  }

  _drawGoal(rnd) {
    this.goal = rnd?.target || null;
    const g = this.layers.goal;
    g.replaceChildren();
    if (!rnd || !rnd.target) return;
    const color = this.display(rnd.goal?.robot || rnd.active_color || "red");
    const [x, y] = rnd.target;
    g.append(el("rect", {
      class: `goal goal-${color}`, x: x * CELL - 1, y: y * CELL - 1, width: CELL + 2, height: CELL + 2, rx: 6,
      fill: "none", stroke: PCOLORS[color], "stroke-width": 4, "stroke-dasharray": "7 4",
    }, title(t("py.goal", goalWords(rnd.goal, this.palette)))));
  }

  _drawTokens(start) {
    // Where the robots started the round ("mark the starting locations … with pyramids lying on their sides").
    const g = this.layers.tokens;
    g.replaceChildren();
    for (const r of start || []) {
      const [x, y] = r.cell;
      const c = this.display(r.color);
      g.append(el("rect", {
        class: `token token-${r.color}`, x: x * CELL + 5, y: y * CELL + 5, width: CELL - 10, height: CELL - 10, rx: 3,
        fill: PCOLORS[c], "fill-opacity": 0.18, stroke: PDARK[c], "stroke-width": 1.2, "stroke-dasharray": "3 2",
      }));
    }
  }

  _robotBody(color) {
    const c = this.display(color);
    const label = el("text", {
      x: 0, y: CELL * 0.43, "text-anchor": "middle", "font-size": 11, "font-weight": "bold", fill: "#111",
      stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", "pointer-events": "none",
    });
    label.textContent = colorLetter(c);
    // A white rim and a shadow: a robot stands out even on a tower of its own colour.
    const s = CELL * 0.4;
    return [el("rect", { x: r2(-s / 2 - 1), y: r2(-s / 2), width: r2(s + 4), height: r2(s + 4), rx: 2, fill: "#000", "fill-opacity": 0.3 }),
      el("rect", { x: r2(-s / 2 - 2.5), y: r2(-s / 2 - 3.5), width: r2(s + 5), height: r2(s + 5), rx: 2, fill: "#fff" }),
      pyramid(c, 0, -1, s, "small"), label];
  }

  /** Let the host arrange the towers (``onMove(from, to)``), or stop (``null``). */
  setArrange(onMove) {
    if (!onMove && this.picked) { this.picked = null; this.boardKey = null; }
    this.onArrange = onMove;
    this.svg.classList.toggle("arranging", !!onMove);
    for (const node of this.layers.static.querySelectorAll(".tower")) node.setAttribute("tabindex", onMove ? 0 : -1);
  }

  _towerAt(cell) { return cell && this.towers.find((tw) => tw.cell[0] === cell[0] && tw.cell[1] === cell[1]); }

  _pick(cell) {
    this.picked = cell;
    this.boardKey = null;  // redraw with the picked tower marked
    this._drawStatic();
    this.boardKey = JSON.stringify([this.towers, this.palette, getLang()]);
    this.setArrange(this.onArrange);
    if (cell) this.layers.static.querySelector(`.tower[data-cell="${cell.join(",")}"]`)?.focus();
  }

  _bindArrange() {
    let from = null;
    this.svg.addEventListener("pointerdown", (e) => {
      if (!this.onArrange) return;
      from = this._cellAt(this._point(e));
    });
    this.svg.addEventListener("pointerup", (e) => {
      if (!this.onArrange || !from) return;
      const to = this._cellAt(this._point(e));
      const start = from;
      from = null;
      if (!to) return;
      if (this._towerAt(start) && (start[0] !== to[0] || start[1] !== to[1])) { this._pick(null); this.onArrange(start, to); return; }
      if (this._towerAt(to)) { this._pick(this.picked && this.picked[0] === to[0] && this.picked[1] === to[1] ? null : to); return; }
      if (this.picked) { const p = this.picked; this._pick(null); this.onArrange(p, to); }
    });
    // Keyboard: Enter picks a tower up, arrow keys carry it one square.
    this.svg.addEventListener("keydown", (e) => {
      if (!this.onArrange) return;
      const node = e.target.closest?.(".tower");
      if (!node) return;
      const cell = node.dataset.cell.split(",").map(Number);
      const step = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this._pick(cell); }
      else if (step) {
        e.preventDefault();
        const to = [cell[0] + step[0], cell[1] + step[1]];
        if (to[0] >= 0 && to[1] >= 0 && to[0] < SIZE && to[1] < SIZE && !this._towerAt(to)) this.onArrange(cell, to);
      }
    });
  }
}

/** The words of a goal for t("py.goal"): robot, top and bottom colour names. */
export function goalWords(goal, palette = null) {
  if (!goal) return { robot: "", top: "", bottom: "" };
  return { robot: colorName(palette?.[goal.robot] ?? goal.robot), top: colorName(goal.top), bottom: colorName(goal.bottom) };
}
