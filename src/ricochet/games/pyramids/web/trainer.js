// Ricochet Pyramids' solo puzzles in the trainer: nine towers, three robots, a goal tower.

import { gridTrainer } from "../../trainer-grid.js";
import { t } from "../../i18n.js";
import { PyramidsBoard, goalIcon, goalWords } from "./board.js";

export const trainer = gridTrainer({
  Board: PyramidsBoard,
  view: (p, robots, pz) => ({
    towers: p.display.towers, robots,
    round: { target: p.puzzle.target, active: pz.active, active_color: p.display.active_color, start: pz.robots, goal: p.display.goal },
  }),
  goal: (p) => [goalIcon(p.display.goal, 30), " ", t("tr.goal.pyramids", goalWords(p.display.goal))],
});
