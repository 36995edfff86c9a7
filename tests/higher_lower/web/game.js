// Higher or Lower in the web shell (the GameModule of /static/games/index.js): a number
// line with what is left to guess, and a button per number.

import { el, title } from "../../svg.js";
import { t, tg } from "../../i18n.js";
import { h, fill, toast } from "../../ui.js";
import { cues } from "../../cues.js";
import STRINGS from "./strings.js";

const NAME = "higher-lower";
const HIGH = 9;

/** The number line: each number a square, those still possible lit. */
function drawLine(svg, state) {
  svg.replaceChildren();
  for (let n = 1; n <= HIGH; n++) {
    const open = state.phase === "guessing" && n >= state.low && n <= state.high;
    const x = (n - 1) * 40;
    const label = el("text", { x: x + 18, y: 26, "text-anchor": "middle", "font-size": 16, fill: open ? "#fff" : "#777" });
    label.textContent = String(n);
    svg.append(el("g", { class: `hl-number${open ? " open" : ""}`, "data-number": n },
      title(String(n)), el("rect", { x, y: 4, width: 36, height: 32, rx: 5, fill: open ? "#1f5fd6" : "#e6dfcf" }), label));
  }
}

function line(wrap) {
  const svg = el("svg", { class: "board-svg hl-board", viewBox: "0 0 360 40", role: "img", "aria-label": t("game.higher-lower") });
  wrap.replaceChildren(svg);
  return svg;
}

function room(ctx) {
  const svg = line(ctx.board);
  const buttons = Array.from({ length: HIGH }, (_, k) => h("button", { type: "button", class: "hl-guess", id: `hl-guess-${k + 1}`,
    onclick: () => ctx.send("guess", { number: k + 1 }) }, String(k + 1)));
  const head = h("h2", { id: "bid-h" });
  const panel = h("div", { class: "hl-panel" }, head, h("div", { class: "hl-guesses", role: "group" }, buttons));
  return {
    panel,
    update(s) {
      drawLine(svg, s);
      head.textContent = t("hl.panel");
      panel.hidden = s.phase !== "guessing";
      buttons.forEach((b, k) => { b.disabled = !ctx.seated() || !ctx.online() || k + 1 < s.low || k + 1 > s.high; });
    },
    status: (s) => [h("div", {}, h("div", { class: "round-n" }, s.round ? t("hl.round", { n: s.round }) : tg(NAME, "room.target_score", { n: s.target_score })),
      s.phase === "guessing" ? h("div", { class: "target-name" }, t("hl.range", { low: s.low, high: s.high })) : null)],
    phase: (s) => (s.phase === "guessing" ? t("hl.phase.guessing") : t(`phase.${s.phase}`)),
    result: () => null,
    history: () => null,
    demo: () => null,
    clock: () => null,
    myTurn: () => false,
    hostControls: () => null,
    onEvent(ev) {
      if (ev.type === "guessed" && ev.verdict === "right") cues.play(ev.player === ctx.me() ? "won" : "lost");
      else if (ev.type === "guessed" && ev.player === ctx.me()) toast(t(`hl.ev.guessed.${ev.verdict}`, { name: ctx.nameOf(ev.player), number: ev.number }));
    },
    onMessage() {},
    onLost: () => false,
    handleKey(e) {
      const n = Number(e.key);
      if (n >= 1 && n <= HIGH && !buttons[n - 1].disabled) { buttons[n - 1].click(); return true; }
      return false;
    },
  };
}

function replay(wrap) {
  const svg = line(wrap);
  return {
    show(s) { drawLine(svg, s); },
    info: (s) => (s.round ? [h("span", {}, t("hl.round", { n: s.round }))] : []),
  };
}

export default {
  name: NAME,
  strings: STRINGS,
  styles: ["style.css"],
  thumbnail(size = 44) {
    const svg = el("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "game-thumb", "aria-hidden": "true" });
    svg.append(el("rect", { x: 1, y: 1, width: 38, height: 38, rx: 6, fill: "#1f5fd6" }),
      el("path", { d: "M20 8 L30 18 H10 Z M20 32 L30 22 H10 Z", fill: "#fff" }));
    return svg;
  },
  optionFields: (d) => [h("label", {}, t("hl.opt.target_score"), " ", h("input", { type: "number", name: "target_score", min: 1, max: 9, value: d.target_score ?? 2 }))],
  readOptions: (f) => ({ target_score: Number(f.get("target_score")) || 2 }),
  room,
  replay,
  describe(ev, nameOf) {
    if (ev.type === "game_started") return t("ev.game_started");
    if (ev.type === "number_chosen") return t("hl.ev.number_chosen", { n: ev.round });
    if (ev.type === "guessed") return t(`hl.ev.guessed.${ev.verdict}`, { name: nameOf(ev.player), number: ev.number });
    return null;
  },
  roundStart: (ev) => ev.type === "number_chosen",
  tokens: (p) => Array.from({ length: p.score }, () => h("span", { class: "hl-point", "aria-hidden": "true" }, "★")),
};
