// What a player may choose for rated puzzles: near their rating or an optimal length, a
// style, a difficulty (easier / normal / harder: the rating served moves by -300 / 0 / +300)
// and a theme (only those the game's puzzles can have: GET /api/trainer/me's
// games[G].themes).  Chosen values live in the trainer's state object.

import { t } from "./i18n.js";
import { h } from "./ui.js";

export const DIFFICULTIES = ["easier", "normal", "harder"];
const DIFFICULTY_KEY = "ricochet.trainer.difficulty";

/** The difficulty kept from the last visit ("normal" at first). */
export function savedDifficulty() {
  try {
    const v = localStorage.getItem(DIFFICULTY_KEY);
    return DIFFICULTIES.includes(v) ? v : "normal";
  } catch { return "normal"; }
}

/** A theme in words ("3 ricochets", "Cosmic vortex"); an unknown one as the server names it. */
export function themeLabel(theme) {
  const m = /^(robots|ricochets)-(\d+)$/.exec(theme);
  if (m) return Number(m[2]) === 1 ? t(`tr.theme.${m[1].slice(0, -1)}`) : t(`tr.theme.${m[1]}`, { n: m[2] });
  const key = `tr.theme.${theme}`;
  const text = t(key);
  return text === key ? theme : text;
}

/** The query of a rated puzzle for these choices ("&length=9&theme=solo…"). */
export function ratedQuery(s) {
  const parts = [];
  if (s.length) parts.push(`length=${encodeURIComponent(s.length)}`);
  if (s.style) parts.push(`style=${encodeURIComponent(s.style)}`);
  if (s.difficulty && s.difficulty !== "normal") parts.push(`difficulty=${s.difficulty}`);
  if (s.theme) parts.push(`theme=${encodeURIComponent(s.theme)}`);
  return parts.map((p) => `&${p}`).join("");
}

/**
 * The rated puzzles' choices for a game (info: me.games[game]); `s` holds length, style,
 * difficulty and theme ("": none chosen); go() loads a puzzle after a change.
 */
export function ratedChoices(info, s, go) {
  const select = (id, label, options, value, onchange) => {
    const el = h("select", { id, "aria-label": label, title: label },
      options.map(([v, text]) => h("option", { value: v }, text)));
    el.value = value;
    el.addEventListener("change", () => { onchange(el.value); go(); });
    return el;
  };
  const lengths = Array.from({ length: info.lengths[1] - info.lengths[0] + 1 }, (_, k) => info.lengths[0] + k);
  return h("span", { class: "tr-choices" },
    select("tr-length", t("tr.length"), [["", t("tr.length.auto")], ...lengths.map((n) => [String(n), t("tr.length.n", { n })])],
      s.length, (v) => { s.length = v; }),
    select("tr-difficulty", t("tr.difficulty"), DIFFICULTIES.map((d) => [d, t(`tr.difficulty.${d}`)]), s.difficulty || "normal",
      (v) => { s.difficulty = v; try { localStorage.setItem(DIFFICULTY_KEY, v); } catch { /* private mode */ } }),
    select("tr-theme", t("tr.theme"), [["", t("tr.theme.any")], ...(info.themes || []).map((v) => [v, themeLabel(v)])],
      s.theme, (v) => { s.theme = v; }),
    select("tr-style", t("tr.style"), [["", t("tr.style.any")], ...info.styles.map((v) => [v, t(`tr.style.${v}`)])],
      s.style, (v) => { s.style = v; }));
}
