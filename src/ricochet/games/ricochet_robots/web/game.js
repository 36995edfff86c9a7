// Ricochet Robots in the web shell: the bidding round (bidding.js) on its board (the
// engine's grid board with the chip: board.js), the chip as the goal, its lobby options,
// its log lines and its solo puzzles (trainer.js).

import { biddingGame } from "../../bidding.js";
import { el } from "../../svg.js";
import { t, chipName, colorName } from "../../i18n.js";
import { h } from "../../ui.js";
import { RobotsBoard, chipIcon } from "./board.js";
import STRINGS from "./strings.js";
import { trainer } from "./trainer.js";
import { howTo } from "./howto.js";

const TILES = ["1", "2", "3", "4"].flatMap((p) => ["A", "B", "C", "D"].map((f) => p + f));
const RULES = ["diagonals", "openings", "silver", "transparent", "must_ricochet", "no_straight_back", "tournament"];
const ON_BY_DEFAULT = ["diagonals", "openings", "silver", "must_ricochet", "no_straight_back"];

/** A small picture of the game for the lobby: a quarter board with walls, a target and a robot. */
function thumbnail(size = 44) {
  const svg = el("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "game-thumb", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 38, height: 38, rx: 4, fill: "#f4f1e8", stroke: "#2b2b2b", "stroke-width": 2 }),
    el("rect", { x: 17, y: 17, width: 6, height: 6, fill: "#55524a" }),
    el("path", { d: "M8 1 V10 H14 M26 39 V30 H32 M1 26 H9", stroke: "#2b2b2b", "stroke-width": 2, fill: "none" }),
    el("circle", { cx: 30, cy: 10, r: 4, fill: "#d62728", stroke: "#8b1a1a" }),
    el("circle", { cx: 9, cy: 31, r: 5, fill: "#1f5fd6", stroke: "#0d3b8c", "stroke-width": 1.5 }));
  return svg;
}

export default biddingGame({
  name: "ricochet-robots",
  strings: STRINGS,
  styles: ["style.css"],
  Board: RobotsBoard,
  thumbnail,
  trainer,
  howTo,
  /** The goal of a round (or of a finished round in the history) as a picture and in words. */
  goalIcon: (r, size) => chipIcon(r.chip, size),
  goalText: (r) => t("round.target", { target: chipName(r.chip) }),
  activeText: (r) => (r.active_color ? t("round.active", { robot: colorName(r.active_color) }) : t("round.active_any")),
  /** What a player won, as small pictures. */
  tokens: (p) => (p.chips || []).map((c) => chipIcon(c, 18)),
  /** A line of the room's log for this game's own events (null: not one of them). */
  describe(ev, nameOf, state, live) {
    if (ev.type === "chip_drawn") return t("ev.chip_drawn", { round: ev.round, chip: chipName(ev) });
    // In the room the round's result says its optimum: the replay's list says it as it came.
    if (ev.type === "round_solved") return live ? "" : t("ev.round_solved", { round: ev.round, optimal: ev.optimal ?? "—" });
    return null;
  },
  /** A chip drawn: a new round (and a new goal: a solution shown is put away). */
  roundStart: (ev) => ev.type === "chip_drawn",
  newGoal: (ev) => ev.type === "chip_drawn",
  /** Before the clock runs out: the order the demonstrations would go in (seed 000: equal bids, fewer
   * chips first; the tournament variant: the earlier bid; still equal: the earlier bid). */
  bidOrder(standing, state) {
    const chips = new Map((state.players || []).map((p) => [p.id, p.score]));
    const tournament = !!state.config?.tournament;
    return [...standing].sort((a, b) => a.moves - b.moves || (tournament ? 0 : (chips.get(a.player) ?? 0) - (chips.get(b.player) ?? 0)) || a.at - b.at);
  },
  /** The game's fields of the "new room" form. */
  optionFields(d) {
    const check = (key) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: key, checked: d[key] ?? ON_BY_DEFAULT.includes(key) }), " ", t(`opt.${key}`));
    const tileSelects = ["NW", "NE", "SE", "SW"].map((pos, i) => {
      const sel = h("select", { name: `tile${i}`, id: `tile${i}` });
      for (const n of TILES.filter((x) => x[0] === String(i + 1)).concat(TILES.filter((x) => x[0] !== String(i + 1)))) sel.append(h("option", { value: n }, n));
      return h("label", {}, t(`opt.tile.${pos}`), " ", sel);
    });
    const chosen = h("div", { class: "tiles", hidden: true }, tileSelects);
    const faces = h("select", { name: "faces", id: "faces" },
      ["AB", "CD", "any"].map((f) => h("option", { value: f }, t(`opt.faces.${f}`))));
    faces.value = d.faces || "AB";
    const facesLabel = h("label", {}, t("opt.faces"), " ", faces);
    return [
      h("fieldset", { class: "board-mode" }, h("legend", {}, t("opt.board")),
        ["random", "chosen"].map((m) => h("label", { class: "check" },
          h("input", { type: "radio", name: "board_mode", value: m, checked: m === "random", onchange: () => { chosen.hidden = m !== "chosen"; facesLabel.hidden = m === "chosen"; } }),
          " ", t(`opt.board.${m}`))),
        facesLabel, chosen),
      h("details", { class: "rules" }, h("summary", {}, t("opt.more")),
        h("div", { class: "checks" }, RULES.map(check)),
        h("label", {}, t("opt.clock"), " ", h("input", { type: "number", name: "clock_seconds", min: 5, max: 600, value: d.clock_seconds ?? 60 })),
        h("label", {}, t("opt.target_score"), " ", h("input", { type: "number", name: "target_score", min: 1, max: 17, value: d.target_score ?? "" }))),
    ];
  },
  /** The room options from the form. */
  readOptions(f) {
    const body = {};
    for (const k of RULES) body[k] = f.get(k) === "on";
    if (f.get("board_mode") === "chosen") body.tiles = [0, 1, 2, 3].map((i) => f.get(`tile${i}`)).join(",");
    else body.faces = f.get("faces");
    body.clock_seconds = Number(f.get("clock_seconds")) || 60;
    body.target_score = f.get("target_score") ? Number(f.get("target_score")) : null;
    return body;
  },
});
