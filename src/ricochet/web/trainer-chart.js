// The trainer's rating chart: the rating after each rated attempt against time (the
// history's "at", seconds since 1970), with dates on the axis in the page's language.
// The labels are sized for a phone: the SVG is as wide as its panel (about 340 px on a
// 390 px screen, the same on a desktop's side column), so 11 units are about 12 px.

import { t, getLang } from "./i18n.js";
import { el } from "./svg.js";

const DAY = 86400;
const W = 320, H = 150, LEFT = 34, RIGHT = 10, TOP = 10, BOTTOM = 24;

/** Round numbers of seconds a tick may be apart: hours, then days, weeks, months. */
const STEPS = [900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 61 * DAY, 91 * DAY, 182 * DAY, 365 * DAY];

/**
 * Ticks for a time span [lo, hi] (seconds): at most `most` round times inside it, with
 * the label format their spacing needs (times of day, days, or months).
 */
export function timeTicks(lo, hi, most = 4) {
  const span = Math.max(1, hi - lo);
  const step = STEPS.find((s) => span / s <= most) || STEPS.at(-1);
  // Round to the step in local time: midnights for days and longer, whole hours below.
  const ticks = [];
  if (step >= 30 * DAY) {  // months: their first days, every `every` months
    const every = Math.round(step / (30.5 * DAY));
    const d = new Date(lo * 1000);
    let month = new Date(d.getFullYear(), d.getMonth() + 1, 1);
    while (month.getTime() / 1000 <= hi) {
      if (month.getMonth() % every === 0) ticks.push(month.getTime() / 1000);
      month = new Date(month.getFullYear(), month.getMonth() + 1, 1);
    }
    return { ticks, kind: "month" };
  }
  const offset = new Date(lo * 1000).getTimezoneOffset() * 60;
  const first = Math.ceil((lo - offset) / step) * step + offset;
  for (let x = first; x <= hi + 1e-6; x += step) ticks.push(x);
  return { ticks, kind: step < DAY ? "time" : "day" };
}

function formatter(kind, withYear) {
  const options = kind === "time" ? { hour: "2-digit", minute: "2-digit" }
    : kind === "day" ? { day: "numeric", month: "short" } : { month: "short", ...(withYear ? { year: "2-digit" } : {}) };
  return new Intl.DateTimeFormat(getLang(), options);
}

/** A date for the chart's description ("14 Mar 2026"). */
function longDate(at) {
  return new Intl.DateTimeFormat(getLang(), { day: "numeric", month: "short", year: "numeric" }).format(new Date(at * 1000));
}

function text(x, y, content, attrs = {}) {
  const node = el("text", { x, y, "font-size": 11, fill: "#6b665c", ...attrs });
  node.textContent = content;
  return node;
}

/**
 * The rating after each rated attempt (history points {at, rating}, oldest first) as an
 * SVG line against time: dates under it, ratings on its left, 1500 dashed.
 */
export function chart(history) {
  const points = history.filter((p) => Number.isFinite(p.at) && Number.isFinite(p.rating));
  const label = points.length
    ? t("tr.chart.axis", { n: points.length, from: longDate(points[0].at), to: longDate(points.at(-1).at) })
    : t("tr.chart.empty");
  const svg = el("svg", { viewBox: `0 0 ${W} ${points.length ? H : 30}`, class: "tr-chart", id: "tr-chart", role: "img", "aria-label": label });
  if (!points.length) {
    svg.append(text(W / 2, 19, t("tr.chart.empty"), { "text-anchor": "middle" }));
    return svg;
  }
  let t0 = points[0].at, t1 = points.at(-1).at;
  if (t1 - t0 < 3600) { t0 -= 1800; t1 += 1800; }  // one sitting: an hour around it
  const ratings = [1500, ...points.map((p) => p.rating)];
  const lo = Math.min(...ratings) - 15, hi = Math.max(...ratings) + 15;
  const x = (at) => LEFT + ((at - t0) * (W - LEFT - RIGHT)) / (t1 - t0);
  const y = (v) => TOP + ((hi - v) * (H - TOP - BOTTOM)) / (hi - lo);

  const { ticks, kind } = timeTicks(t0, t1);
  const years = new Set(ticks.map((s) => new Date(s * 1000).getFullYear()));
  const fmt = formatter(kind, years.size > 1);
  const axis = el("g", { class: "tr-chart-axis" });
  axis.append(el("line", { x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM, stroke: "#bdb6a6" }));
  for (const at of ticks) {
    const px = x(at);
    axis.append(el("line", { x1: px, y1: TOP, x2: px, y2: H - BOTTOM + 3, stroke: "#e4ded2" }));
    // A label near an edge is anchored on it, never cut off.
    const anchor = px > W - RIGHT - 28 ? "end" : px < LEFT + 20 ? "start" : "middle";
    const lx = anchor === "end" ? W - 2 : anchor === "start" ? Math.max(2, px - 4) : px;
    axis.append(text(lx, H - 8, fmt.format(new Date(at * 1000)), { "text-anchor": anchor, class: "tr-chart-tick" }));
  }
  const levels = [Math.round(hi - 15), Math.round(lo + 15)];
  if (levels.every((v) => Math.abs(y(v) - y(1500)) >= 14)) levels.push(1500);
  for (const v of levels) {
    axis.append(text(LEFT - 4, y(v) + 4, String(v), { "text-anchor": "end" }));
  }
  svg.append(axis);
  svg.append(el("line", { x1: LEFT, y1: y(1500), x2: W - RIGHT, y2: y(1500), stroke: "#bbb", "stroke-dasharray": "3 3" }));
  const line = points.map((p) => `${x(p.at).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  svg.append(el("polyline", { points: line, fill: "none", stroke: "#1f5fd6", "stroke-width": 2, "stroke-linejoin": "round" }));
  const last = points.at(-1);
  svg.append(el("circle", { cx: x(last.at), cy: y(last.rating), r: 3.5, fill: "#1f5fd6" }));
  return svg;
}
