// Ricochet Robots' board: the engine's grid board (gridboard.js) with the chip of the
// round in the centre and the goal called by the chip's name; and a chip as a small
// picture for the side panel and lists.

import { CELL, GridBoard, symbol } from "../../gridboard.js";
import { el, title } from "../../svg.js";
import { t, chipName } from "../../i18n.js";

/** A small standalone SVG of a chip (for the side panel and lists). */
export function chipIcon(chip, size = 28) {
  const svg = el("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "chip-icon", role: "img", "aria-label": chipName(chip) });
  svg.append(el("circle", { cx: 20, cy: 20, r: 18, fill: "#fffdf5", stroke: "#333", "stroke-width": 2 }));
  for (const s of symbol(chip.color, chip.symbol, 20, 20, 11)) svg.append(s);
  return svg;
}

/**
 * The board before the game starts, when its tiles are not laid yet (they are drawn at the start):
 * the 16×16 frame and its central block, in the wire format of a room's state.
 */
export function frameBoard() {
  const walls = new Array(16 * 16).fill(0);
  const wall = (x, y, bit) => { walls[y * 16 + x] |= bit; };
  for (const x of [7, 8]) { wall(x, 6, 4); wall(x, 8, 4); }  // south sides: above the block and its foot
  for (const y of [7, 8]) { wall(6, y, 2); wall(8, y, 2); }  // east sides: left of the block and its right
  return { width: 16, height: 16, walls, blocked: [[7, 7], [8, 7], [7, 8], [8, 8]], targets: [], diagonals: [], openings: [] };
}

export class RobotsBoard extends GridBoard {
  /** Before the start (no board yet): the frame, so a room never shows an empty square. */
  render(view) {
    super.render(!view.board && view.phase === "lobby" ? { ...view, board: frameBoard() } : view);
  }

  goalTitle(rnd) { return t("round.target", { target: chipName(rnd.chip) }); }

  /** The chip drawn for the round, on the central block. */
  drawRound(rnd, b) {
    const g = this.layers.chip;
    g.replaceChildren();
    const chip = rnd?.chip;
    if (!chip || !b.blocked.length) return;
    const xs = b.blocked.map((c) => c[0]), ys = b.blocked.map((c) => c[1]);
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const cx = ((minX + maxX + 1) / 2) * CELL, cy = ((minY + maxY + 1) / 2) * CELL;
    const r = (CELL * 0.55 * Math.min(maxX - minX + 1, maxY - minY + 1)) / 2 + CELL * 0.15;
    const grp = el("g", { class: `chip chip-${chip.color} chip-${chip.symbol}` }, title(chipName(chip)),
      el("circle", { cx, cy, r, fill: "#fffdf5", stroke: "#333", "stroke-width": 2 }));
    for (const s of symbol(chip.color, chip.symbol, cx, cy, r * 0.6)) grp.append(s);
    g.append(grp);
  }
}
