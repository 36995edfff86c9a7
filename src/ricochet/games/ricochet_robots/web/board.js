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

export class RobotsBoard extends GridBoard {
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
