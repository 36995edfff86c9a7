// RAMbots' board seen from above: a chessboard; RAMbots (large) and beacons
// (small) as Icehouse pyramids — standing: a square with its four faces;
// lying on a side: a triangle pointing where its nose points.  Objects glide
// to their new squares after each instruction, and the beam flashes.

import { el, title, r2 } from "../../svg.js";
import { t, colorName, colorLetter, playerName } from "../../i18n.js";

const BOT_LEVELS = ["beginner", "intermediate", "expert", "perfect"];  // (a replay's names: a bot's level)

export const CELL = 50;
export const RCOLORS = { red: "#d62728", yellow: "#f2c500", green: "#2ca02c", blue: "#1f5fd6" };
export const RDARK = { red: "#7f1616", yellow: "#7a6100", green: "#1b5e20", blue: "#0d3b8c" };
const ROT = { N: 0, E: 90, S: 180, W: 270 };
const VEC = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

/** A piece's colour letter, upright at its centre (colour is never the only cue). */
function pieceLetter(color, s) {
  const text = el("text", { class: "color-letter", x: 0, y: r2(s * 0.17), "text-anchor": "middle", "font-size": r2(Math.max(6, s * 0.42)),
    "font-weight": "bold", fill: color === "yellow" ? "#111" : "#fff", "pointer-events": "none", "aria-hidden": "true" });
  text.textContent = colorLetter(color);
  return text;
}

/** An Icehouse piece from above, centred on (0, 0): ``size`` 1–3, standing (``facing`` null) or lying; with its colour's letter. */
export function piece(color, size, facing, scale = CELL) {
  const s = scale * (0.3 + 0.18 * size);
  return el("g", { class: "piece" }, pieceShape(color, size, facing, scale), pieceLetter(color, s));
}

function pieceShape(color, size, facing, scale) {
  const s = scale * (0.3 + 0.18 * size);
  const h = s / 2;
  const fill = RCOLORS[color], dark = RDARK[color];
  if (!facing) {
    return el("g", { class: "pyr standing" },
      el("rect", { x: r2(-h), y: r2(-h), width: r2(s), height: r2(s), fill, stroke: dark, "stroke-width": 1.5 }),
      el("polygon", { points: `${r2(-h)},${r2(-h)} 0,0 ${r2(h)},${r2(-h)}`, fill: "#fff", "fill-opacity": 0.3 }),
      el("polygon", { points: `${r2(-h)},${r2(h)} 0,0 ${r2(h)},${r2(h)}`, fill: "#000", "fill-opacity": 0.22 }),
      el("path", { d: `M${r2(-h)},${r2(-h)} L${r2(h)},${r2(h)} M${r2(h)},${r2(-h)} L${r2(-h)},${r2(h)}`, stroke: dark, "stroke-width": 1, "stroke-opacity": 0.6 }));
  }
  // Lying on its side: the base at the back, the point (the nose) forward.
  const len = s * 1.25;
  return el("g", { class: "pyr lying", transform: `rotate(${ROT[facing]})` },
    el("polygon", { points: `0,${r2(-len / 2)} ${r2(h)},${r2(len / 2)} ${r2(-h)},${r2(len / 2)}`, fill, stroke: dark, "stroke-width": 1.5, "stroke-linejoin": "round" }),
    el("line", { x1: 0, y1: r2(-len / 2), x2: 0, y2: r2(len / 2), stroke: dark, "stroke-width": 1, "stroke-opacity": 0.5 }));
}

/** A small standalone picture of an instruction or a piece (for the editor and the stacks). */
export function pieceIcon(color, size, orientation = null, px = 30) {
  const svg = el("svg", { viewBox: "-20 -20 40 40", width: px, height: px, class: "piece-icon", role: "img",
    "aria-label": t("ram.piece", { size: t(`ram.size.${size}`), color: t(`ram.color.${color}`) }) + (orientation ? ` ${t(`ram.orient.${orientation}`)}` : "") });
  svg.append(piece(color, size, orientation && orientation !== "up" ? orientation : null, 36));
  return svg;
}

export class RamBoardView {
  constructor(container, handlers = {}) {
    this.container = container;
    this.handlers = handlers;
    this.nodes = new Map();
    this.svg = el("svg", { class: "board-svg ram-board", role: "group", "aria-roledescription": "board", viewBox: `-16 -4 ${8 * CELL + 20} ${8 * CELL + 20}` });
    this.layers = {};
    for (const name of ["squares", "objects", "beams"]) {
      this.layers[name] = el("g", { class: `layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    this._drawSquares();
    container.replaceChildren(this.svg);
  }

  _drawSquares() {
    const g = this.layers.squares, W = 8 * CELL;
    g.append(el("rect", { x: 0, y: 0, width: W, height: W, fill: "#efe6d2" }));
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) if ((x + y) % 2) g.append(el("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: "#c9bca0" }));
      const rank = el("text", { x: -8, y: y * CELL + CELL / 2 + 4, "text-anchor": "middle", "font-size": 10, fill: "#6b665c" });
      rank.textContent = String(8 - y);
      const file = el("text", { x: y * CELL + CELL / 2, y: W + 12, "text-anchor": "middle", "font-size": 10, fill: "#6b665c" });
      file.textContent = "abcdefgh"[y];
      g.append(rank, file);
    }
    g.append(el("rect", { x: 0, y: 0, width: W, height: W, fill: "none", stroke: "#5d5548", "stroke-width": 2 }));
  }

  render(view) {
    this.view = view;
    const seen = new Set();
    for (const o of view.objects || []) {
      const key = `${o.kind}:${o.color}`;
      seen.add(key);
      let node = this.nodes.get(key);
      const look = `${o.facing}`;
      if (!node || node.dataset.look !== look) {
        const fresh = el("g", { class: `obj obj-${o.kind} obj-${o.color}`, id: `${o.kind}-${o.color}`, "data-look": look },
          title(t(`ram.${o.kind}`, { color: o.kind === "beacon" ? t(`ram.color.${o.color}`) : colorName(o.color) }) + (o.facing ? ` (${t(`ram.orient.${o.facing}`)})` : ` (${t("ram.orient.up")})`)),
          piece(o.color, o.kind === "bot" ? 3 : 1, o.facing));
        if (o.kind === "bot") {
          const owner = view.players?.find((p) => p.color === o.color);
          const label = el("text", { x: 0, y: CELL * 0.47, "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: "#111", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" });
          // The whole name (a bot's without its level), smaller when long: never cut.
          const name = owner ? (this.handlers.shortName?.(owner.id) ?? playerName(owner.name, BOT_LEVELS, true)) : "";
          label.textContent = name;
          if (name.length > 7) label.setAttribute("font-size", String(Math.max(6, Math.round(70 / name.length))));
          label.setAttribute("data-name", name);
          fresh.append(label);
        }
        if (node) { fresh.setAttribute("transform", node.getAttribute("transform")); node.replaceWith(fresh); }
        else this.layers.objects.append(fresh);
        node = fresh;
        this.nodes.set(key, node);
      }
      const [x, y] = o.cell;
      node.dataset.cell = `${x},${y}`;
      // CSS moves it smoothly from where it was (transform transition).
      node.setAttribute("transform", `translate(${x * CELL + CELL / 2},${y * CELL + CELL / 2})`);
    }
    for (const [key, node] of this.nodes) if (!seen.has(key)) { node.remove(); this.nodes.delete(key); }
  }

  /** Flash the beam of an executed instruction, from the RAMbot toward what it hit. */
  beam(ev) {
    const b = ev.effects.find((e) => e.kind === "beam");
    const me = this.view?.objects?.find((o) => o.kind === "bot" && this.view.players?.find((p) => p.id === ev.player)?.color === o.color);
    if (!b || !me || !b.direction) return;
    const hit = b.hit ? this.nodes.get(b.hit)?.dataset.cell?.split(",").map(Number) : null;
    const [dx, dy] = VEC[b.direction];
    const [x0, y0] = [me.cell[0] * CELL + CELL / 2, me.cell[1] * CELL + CELL / 2];
    const end = hit ? [hit[0] * CELL + CELL / 2, hit[1] * CELL + CELL / 2] : [x0 + dx * 8 * CELL, y0 + dy * 8 * CELL];
    const line = el("line", { class: `beam beam-${b.color}`, x1: x0, y1: y0, x2: end[0], y2: end[1], stroke: RCOLORS[b.color], "stroke-width": 6, "stroke-linecap": "round", "stroke-opacity": 0.85 });
    this.layers.beams.append(line);
    setTimeout(() => line.remove(), 700);
  }
}
