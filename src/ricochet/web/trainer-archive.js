// The daily archive (GET /api/puzzles/archive): every past puzzle of the day of a game, a
// calendar per month with the player's result on each day; a day opens that day's puzzle
// in the trainer.  Playing one is rated like any puzzle but does not count for the days in
// a row nor the leaderboard (only a daily opened on its day does).

import { t, getLang } from "./i18n.js";
import { api } from "./net.js";
import { h, fill, toast } from "./ui.js";

const PAGE = 62;  // two months a request
const MARKS = { optimal: "★", found: "✓", failed: "✗", opened: "○", new: "" };

/** What a day of the archive shows: optimal, found, failed, opened (served, not attempted) or new. */
export function dayState(day) {
  if (day.result) return day.result;
  return day.opened ? "opened" : "new";
}

function localDate() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** The days (newest first) as months, oldest day first in each, Monday-first weeks. */
export function months(days) {
  const byMonth = new Map();
  for (const day of days) {
    const key = day.date.slice(0, 7);
    if (!byMonth.has(key)) byMonth.set(key, []);
    byMonth.get(key).push(day);
  }
  return [...byMonth.entries()].map(([key, list]) => ({ key, days: list.slice().reverse() }));
}

/**
 * The archive of ctx.game in `root`.  ctx: {game, openDaily(date)}.  Returns {render, destroy}.
 */
export function mountArchive(root, ctx) {
  const v = { days: [], next: null, inARow: null, loading: false, error: null };
  const today = localDate();
  const els = { head: h("div", { class: "panel ta-head" }), body: h("div", { class: "ta-months", id: "ta-months" }), more: h("div", { class: "ta-more" }) };
  const view = h("section", { class: "ta", id: "archive" }, els.head, els.body, els.more);
  fill(root, view);

  async function load(until) {
    v.loading = true; render();
    try {
      const out = await api(`/api/puzzles/archive?game=${encodeURIComponent(ctx.game)}&until=${until}&limit=${PAGE}`);
      v.days = [...v.days, ...out.days];
      v.next = out.next;
      v.inARow = out.in_a_row;
      v.error = null;
    } catch (e) {
      v.error = e.message;
      if (e.status !== undefined) toast(e.message, "error");
    }
    v.loading = false;
    render();
  }

  function dayCell(day) {
    const state = dayState(day);
    const date = new Date(`${day.date}T12:00:00`);
    const long = new Intl.DateTimeFormat(getLang(), { weekday: "long", day: "numeric", month: "long" }).format(date);
    return h("button", {
      type: "button", class: `ta-day ta-${state}${day.date === today ? " ta-today" : ""}`, "data-date": day.date,
      "aria-label": t("tr.archive.day", { n: day.number, date: long, state: t(`tr.archive.state.${state}`) }),
      title: `#${day.number}`, onclick: () => ctx.openDaily(day.date),
    }, h("span", { class: "ta-n" }, String(date.getDate())), h("span", { class: "ta-mark", "aria-hidden": "true" }, MARKS[state]));
  }

  function month({ key, days }) {
    const first = new Date(`${key}-01T12:00:00`);
    const title = new Intl.DateTimeFormat(getLang(), { month: "long", year: "numeric" }).format(first);
    const names = new Intl.DateTimeFormat(getLang(), { weekday: "narrow" });
    // 2024-01-01 was a Monday: the week's initials in the page's language.
    const heads = Array.from({ length: 7 }, (_, i) => h("span", { class: "ta-wd", "aria-hidden": "true" }, names.format(new Date(2024, 0, 1 + i, 12))));
    const lead = (new Date(`${days[0].date}T12:00:00`).getDay() + 6) % 7;
    return h("div", { class: "panel ta-month", "data-month": key },
      h("h3", {}, title),
      h("div", { class: "ta-grid" }, heads, Array.from({ length: lead }, () => h("span", { class: "ta-blank" })), days.map(dayCell)));
  }

  function render() {
    const row = v.inARow;
    fill(els.head, h("h2", {}, t("tr.archive.title")),
      row ? h("p", { id: "ta-row", class: "ta-row" }, t("tr.archive.in_a_row", { n: row.current, best: row.best })) : null,
      h("p", { class: "muted small" }, t("tr.archive.help")),
      h("p", { class: "small ta-legend" }, t("tr.archive.legend")),
      v.error && !v.days.length ? h("p", { class: "error" }, v.error) : null);
    fill(els.body, months(v.days).map(month));
    fill(els.more, v.next ? h("button", { type: "button", id: "ta-older", disabled: v.loading, onclick: () => load(v.next) }, t("tr.archive.older"))
      : (v.loading ? h("p", { class: "muted" }, t("tr.loading")) : null));
  }

  load(today);
  return { render, destroy: () => {} };
}
