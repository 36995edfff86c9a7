// Ricochet Pyramids in the web shell: the bidding round (bidding.js) on its board, the
// goal tree, the host's tower arrangement before the start, its lobby options, its log
// lines and its solo puzzles (trainer.js).

import { biddingGame } from "../../bidding.js";
import { el } from "../../svg.js";
import { t, tg } from "../../i18n.js";
import { h } from "../../ui.js";
import { PyramidsBoard, goalIcon, goalWords, pyramid } from "./board.js";
import STRINGS from "./strings.js";
import { trainer } from "./trainer.js";
import { howTo } from "./howto.js";

const NAME = "pyramids";

/** A small picture of the game for the lobby: a chessboard corner with a tower and a robot. */
function thumbnail(size = 44) {
  const svg = el("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "game-thumb", "aria-hidden": "true" });
  svg.append(el("rect", { x: 0, y: 0, width: 40, height: 40, rx: 4, fill: "#efe6d2" }));
  for (const [x, y] of [[0, 0], [20, 20]]) svg.append(el("rect", { x, y, width: 20, height: 20, fill: "#c9bca0" }));
  svg.append(pyramid("green", 10, 10, 17, "large"), pyramid("red", 10, 10, 11, "medium"), pyramid("yellow", 30, 30, 9, "small"));
  return svg;
}

export default biddingGame({
  name: NAME,
  strings: STRINGS,
  styles: ["style.css"],
  Board: PyramidsBoard,
  thumbnail,
  trainer,
  howTo,
  goalIcon: (r, size, state) => goalIcon(r.goal, size, state?.robot_palette),
  goalText: (r, state) => t("py.goal", goalWords(r.goal, state?.robot_palette)),
  activeText: (r) => (r.open === false ? t("py.checking") : t("py.goal.hint")),
  tokens: (p, state) => (p.goals || []).map((g) => goalIcon(g, 18, state?.robot_palette)),
  describe(ev, nameOf, state) {
    const words = goalWords(ev, state?.robot_palette);
    switch (ev.type) {
      case "goal_drawn": return ev.draw > 1 ? t("py.ev.goal_redrawn", { round: ev.round, ...words }) : t("py.ev.goal_drawn", { round: ev.round, ...words });
      case "goal_checked": return ev.verdict === "accepted" ? "" : t(`py.ev.${ev.verdict}`, { min: state?.config?.min_moves ?? "" });
      case "layout_set": return t("py.ev.layout_set");
      default: return null;
    }
  },
  /** A goal drawn: its first draw starts a round; any draw (a redraw too) is a new goal. */
  roundStart: (ev) => ev.type === "goal_drawn" && ev.draw === 1,
  newGoal: (ev) => ev.type === "goal_drawn",
  /** Before the start the host arranges the towers on the board (drag, or tap and tap). */
  arrange(board, state, ctx) {
    board.setArrange(ctx.isHost() && state.phase === "lobby" ? (from, to) => ctx.send("move_tower", { from, to }) : null);
  },
  /** Before the start: the host arranges the towers (the board takes drags; these take layouts). */
  hostControls(state, send) {
    if (state.phase !== "lobby") return null;
    return h("div", { class: "arrange" },
      h("p", { class: "small" }, t("py.arrange.help")),
      h("div", { class: "layout-buttons" }, ["random", "easy", "hard"].map((layout) =>
        h("button", { type: "button", class: "small-btn", id: `layout-${layout}`, disabled: layout !== "random" && state.config?.colors === 4,
          onclick: () => send("set_layout", { layout }) }, t(`py.layout.${layout}`)))));
  },
  optionFields(d) {
    const num = (name, min, max, value) => h("input", { type: "number", name, min, max, value });
    const layout = h("select", { name: "layout" }, ["random", "easy", "hard"].map((v) => h("option", { value: v }, t(`py.layout.${v}`))));
    const colors = h("select", { name: "colors" }, [3, 4].map((v) => h("option", { value: v }, t("py.opt.colors.n", { n: v }))));
    const robots = h("select", { name: "robot_colors" }, ["same", "other"].map((v) => h("option", { value: v }, t(`py.opt.robot_colors.${v}`))));
    return [
      h("label", {}, t("py.opt.layout"), " ", layout),
      h("details", { class: "rules" }, h("summary", {}, t("opt.more")),
        h("label", {}, t("py.opt.colors"), " ", colors),
        h("label", {}, t("py.opt.min_moves"), " ", num("min_moves", 1, 8, d.min_moves ?? 3)),
        h("label", {}, t("py.opt.robot_colors"), " ", robots),
        h("label", {}, tg(NAME, "opt.clock"), " ", num("clock_seconds", 5, 600, d.clock_seconds ?? 30)),
        h("label", {}, t("py.opt.target_score"), " ", num("target_score", 1, 99, d.target_score ?? 10))),
    ];
  },
  readOptions(f) {
    const colors = Number(f.get("colors")) || 3;
    return {
      layout: colors === 4 ? "random" : f.get("layout") || "random", colors, robot_colors: f.get("robot_colors") || "same",
      min_moves: Number(f.get("min_moves")) || 1, clock_seconds: Number(f.get("clock_seconds")) || 30,
      target_score: Number(f.get("target_score")) || 10,
    };
  },
});
