// Ricochet Robots' solo puzzles in the trainer: a real board, four robots and a chip.

import { gridTrainer } from "../../trainer-grid.js";
import { boardView } from "../../trainer-physics.js";
import { t, chipName, colorName } from "../../i18n.js";
import { RobotsBoard, chipIcon } from "./board.js";

export const trainer = gridTrainer({
  Board: RobotsBoard,
  view: (p, robots, pz) => ({
    board: boardView(p.puzzle), robots,
    round: { target: p.puzzle.target, active: pz.active, active_color: p.display.active_color, start: pz.robots, chip: p.display.chip },
    config: { rules: { diagonals: true, openings: true } },
  }),
  goal(p) {
    const chip = p.display.chip;
    return [chipIcon(chip, 30), " ", p.display.active_color
      ? t("tr.goal.robots", { robot: colorName(p.display.active_color), target: chipName(chip) })
      : t("tr.goal.vortex", { target: chipName(chip) })];
  },
});
