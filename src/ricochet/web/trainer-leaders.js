// The leaderboards of a game (GET /api/trainer/leaderboard): dailies solved optimally and
// Puzzle Storm's best scores.  Only claimed names are listed (the server sends no ids); an
// anonymous player sees their own numbers and how to appear.

import { t } from "./i18n.js";
import { api } from "./net.js";
import { h, fill, toast } from "./ui.js";

/**
 * The leaderboards of ctx.game in `root`.  ctx: {game}.  Returns {render, destroy}.
 */
export function mountLeaders(root, ctx) {
  const v = { board: null, error: null };
  const view = h("section", { class: "tb", id: "leaders" });
  fill(root, view);

  function table(id, title, help, rows, field, label, mine) {
    const you = v.board.you;
    return h("div", { class: "panel tb-board" },
      h("h2", {}, title),
      help ? h("p", { class: "muted small" }, help) : null,
      rows.length ? h("table", { class: "tb-table", id },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tr.board.rank")), h("th", { scope: "col" }, t("tr.board.name")),
          h("th", { scope: "col", class: "tb-num" }, label))),
        h("tbody", {}, rows.map((r) => h("tr", { class: you.name && r.name === you.name ? "tb-me" : "" },
          h("td", { class: "tb-rank" }, String(r.rank)), h("td", { class: "tb-name" }, r.name), h("td", { class: "tb-num" }, String(r[field]))))))
        : h("p", { class: "muted" }, t("tr.board.empty")),
      h("p", { class: "small tb-you", id: `${id}-you` }, mine.rank ? t("tr.board.you", { n: mine.n, rank: mine.rank }) : t("tr.board.you_unranked", { n: mine.n })));
  }

  function render() {
    if (!v.board) { fill(view, v.error ? h("p", { class: "error" }, v.error) : h("p", { class: "muted" }, t("tr.loading"))); return; }
    const b = v.board;
    fill(view,
      h("h2", { class: "tb-title" }, t("tr.board.title"), h("span", { class: "muted small" }, t(`game.${b.game}`))),
      b.you.name ? null : h("p", { class: "small tb-anon", id: "tb-anon" }, t("tr.board.anonymous")),
      h("div", { class: "tb-boards" },
        table("tb-daily", t("tr.board.daily"), t("tr.board.daily.help"), b.daily, "solved", t("tr.board.solved"),
          { n: b.you.daily.solved, rank: b.you.daily.rank }),
        table("tb-storm", t("tr.board.storm"), null, b.storm, "score", t("tr.board.score"),
          { n: b.you.storm.best, rank: b.you.storm.rank })));
  }

  (async () => {
    try {
      v.board = await api(`/api/trainer/leaderboard?game=${encodeURIComponent(ctx.game)}`);
    } catch (e) {
      v.error = e.message;
      toast(e.message, "error");
    }
    render();
  })();
  render();
  return { render, destroy: () => {} };
}
