// Puzzle Storm (POST /api/storm/start, /api/storm/{id}/answer, GET /api/storm/{id}):
// three minutes of rising puzzles of one game.  The server serves each puzzle, checks each
// answer and keeps the clock; this page only shows it: its countdown runs from the last
// "left" the server sent and, at zero, asks the server whether the storm is over.

import { t } from "./i18n.js";
import { api } from "./net.js";
import { h, fill, toast, fmtSeconds } from "./ui.js";
import { GAMES } from "./games/index.js";

/** The combo that gives time back next, after `combo` right in a row: {n: more needed, s: seconds}. */
export function nextBonus(combo, steps) {
  const next = steps.find(([n]) => n > combo);
  if (next) return { n: next[0] - combo, s: next[1] };
  const [last, seconds] = steps.at(-1);
  return { n: 5 - ((combo - last) % 5), s: seconds };
}

/**
 * Puzzle Storm for ctx.game in `root`.  ctx: {game, me() (GET /api/trainer/me's answer),
 * refreshMe() (reads it again)}.  Returns {render, destroy, handleKey}.
 */
export function mountStorm(root, ctx) {
  const game = ctx.game;
  const module = GAMES[game].trainer;
  const v = {
    phase: "intro",  // intro | starting | playing | sending | over
    storm: null, puzzle: null, play: null, flash: null, sync: null, checking: false,
  };
  const els = {
    top: h("div", { class: "ts-top", "aria-live": "off" }),
    flash: h("p", { class: "ts-flash", id: "ts-flash", "aria-live": "polite" }),
    line: h("div", { class: "status ts-line" }),
    wrap: h("div", { class: "board-wrap tr-board ts-board", id: "ts-board" }),
    controls: h("div", { class: "tr-controls ts-controls" }),
    panel: h("div", { class: "panel ts-panel", id: "ts-panel" }),
  };
  const playArea = h("div", { class: "ts-play" }, els.top, els.flash, els.line, els.wrap, els.controls);
  const view = h("section", { class: "ts", id: "storm", "data-phase": "intro" }, els.panel, playArea);
  fill(root, view);
  const board = module.board(els.wrap, onMove);

  const rules = () => ctx.me()?.storm || { seconds: 180, mistake: 10, combos: [[3, 3], [6, 5], [10, 7], [15, 10]] };

  // -- the clock: the server's "left", counted down here ------------------------------------------
  function left() {
    if (!v.sync) return 0;
    return Math.max(0, v.sync.left - (performance.now() - v.sync.at) / 1000);
  }
  function setStorm(storm) {
    v.storm = storm;
    v.sync = { left: storm.left, at: performance.now() };
  }
  const ticker = setInterval(() => {
    if (v.phase !== "playing" && v.phase !== "sending") return;
    renderClock();
    if (left() <= 0 && v.phase === "playing" && !v.checking) check();
  }, 200);

  /** The countdown reached zero here: the server says whether the storm is over. */
  async function check() {
    v.checking = true;
    try {
      const out = await api(`/api/storm/${v.storm.id}`);
      take(out);
    } catch (e) {
      toast(e.message, "error");
    } finally {
      v.checking = false;
    }
  }

  // -- the storm ------------------------------------------------------------------------------------
  async function start() {
    v.phase = "starting"; v.flash = null;
    render();
    try {
      take(await api("/api/storm/start", { method: "POST", body: { game } }));
    } catch (e) {
      v.phase = "intro";
      toast(e.message, "error", 8000);
      render();
    }
  }

  /** A state from the server: {storm, puzzle} (and the answer's verdict, shown as a flash). */
  function take(out) {
    setStorm(out.storm);
    if (out.storm.over) {
      v.phase = "over"; v.puzzle = null; v.play = null;
      ctx.refreshMe();
    } else if (out.puzzle) {
      if (out.puzzle.id !== v.puzzle?.id) {
        v.puzzle = out.puzzle;
        v.play = module.start(out.puzzle, board);
      }
      v.phase = "playing";
    } else {
      v.phase = "sending";  // no next puzzle yet (the server could not make one in time): ask again
      setTimeout(check, 1000);
    }
    render();
  }

  async function send() {
    if (v.phase !== "playing" || !v.play) return;
    v.phase = "sending";
    board.setInteractive(false);
    renderControls();
    try {
      const out = await api(`/api/storm/${v.storm.id}/answer`, { method: "POST", body: { puzzle: v.puzzle.id, moves: v.play.moves() } });
      const a = out.answer;
      const bonus = a.correct && a.seconds > 0 ? t("tr.storm.bonus", { n: out.storm.combo, s: a.seconds }) : null;
      v.flash = a.correct ? { ok: true, text: bonus || t("tr.storm.right") } : { ok: false, text: t("tr.storm.wrong", { s: -a.seconds }) };
      take(out);
    } catch (e) {
      if (e.code !== "storm_over") toast(e.message, "error");
      try { take(await api(`/api/storm/${v.storm.id}`)); } catch (err) { toast(err.message, "error"); v.phase = "playing"; render(); }
    }
  }

  function onMove(input) {
    if (v.phase !== "playing" || !v.play) return;
    const out = v.play.play(input) || {};
    if (out.error) { toast(out.error, "error"); return; }
    if (out.solved) { send(); return; }
    if (v.play.moves().length >= v.puzzle.optimal) {  // can no longer be optimal: a mistake, on to the next
      toast(t("tr.storm.out_of_moves", { n: v.play.moves().length }), "info");
      send();
      return;
    }
    renderLine(); renderControls();
  }

  // -- drawing --------------------------------------------------------------------------------------
  function stat(id, label, value) {
    return h("div", { class: "ts-stat" }, h("span", { class: "ts-stat-label" }, label), h("span", { class: "ts-stat-value", id }, value));
  }

  function renderClock() {
    const clock = view.querySelector("#ts-clock");
    if (!clock) return;
    const s = left();
    clock.textContent = fmtSeconds(s);
    clock.classList.toggle("urgent", s <= 20);
  }

  function renderTop() {
    if (v.phase !== "playing" && v.phase !== "sending") { fill(els.top); return; }
    const st = v.storm;
    const nb = nextBonus(st.combo, rules().combos);
    fill(els.top,
      stat("ts-clock", t("tr.storm.time"), fmtSeconds(left())),
      stat("ts-score", t("tr.storm.score"), String(st.score)),
      h("div", { class: "ts-stat ts-combo-box" }, h("span", { class: "ts-stat-label" }, t("tr.storm.combo")),
        h("span", { class: "ts-stat-value", id: "ts-combo" }, String(st.combo)),
        h("span", { class: "ts-next muted small", id: "ts-next" }, t("tr.storm.next_bonus", nb))));
    renderClock();
  }

  function renderLine() {
    if (!v.puzzle || !v.play) { fill(els.line); return; }
    fill(els.line, h("div", { class: "tr-info" },
      h("h2", { class: "tr-title", id: "ts-puzzle" }, t("tr.storm.puzzle", { i: v.puzzle.index, n: v.puzzle.optimal })),
      h("p", { class: "tr-goal" }, v.play.goal())),
    h("p", { class: "tr-counter" }, t("tr.moves", { n: v.play.moves().length, optimal: v.puzzle.optimal })));
  }

  function renderControls() {
    const on = v.phase === "playing" && !!v.play;
    const n = v.play ? v.play.moves().length : 0;
    if (v.phase !== "playing" && v.phase !== "sending") { fill(els.controls); return; }
    fill(els.controls,
      h("button", { type: "button", id: "ts-undo", disabled: !on || !n, onclick: () => { v.play.undo(); renderLine(); renderControls(); } }, "↶ ", t("tr.undo")),
      h("button", { type: "button", id: "ts-reset", disabled: !on || !n, onclick: () => { v.play.reset(); renderLine(); renderControls(); } }, "⟲ ", t("tr.reset")),
      h("button", { type: "button", id: "ts-skip", class: "danger", disabled: !on, onclick: send }, t("tr.storm.skip", { s: rules().mistake })),
      h("span", { class: "muted small tr-keys" }, v.play ? t(v.play.keys) : ""));
  }

  function renderPanel() {
    const prof = ctx.me()?.profiles?.[game]?.storm;
    const best = prof?.runs ? t("tr.storm.best", { n: prof.best }) : t("tr.storm.best_none");
    const r = rules();
    const [lo, hi] = ctx.me()?.games?.[game]?.storm || ["?", "?"];
    const about = [
      h("p", { class: "small" }, t("tr.storm.rules", {
        minutes: Math.round(r.seconds / 60), lo, hi, mistake: r.mistake,
        combos: r.combos.map(([n, s]) => t("tr.storm.combo_step", { n, s })).join(", ") })),
      h("p", { class: "muted small" }, t("tr.storm.server_clock")),
    ];
    if (v.phase === "intro" || v.phase === "starting") {
      fill(els.panel, h("h2", {}, t("tr.storm.title"), h("span", { class: "ts-best", id: "ts-best" }, best)), about,
        h("button", { type: "button", class: "primary big", id: "ts-start", disabled: v.phase === "starting", onclick: start },
          v.phase === "starting" ? t("tr.storm.starting") : t("tr.storm.start")));
      return;
    }
    if (v.phase !== "over") { fill(els.panel); return; }
    const st = v.storm;
    fill(els.panel,
      h("h2", {}, t("tr.storm.over"), h("span", { class: "ts-best", id: "ts-best" }, t("tr.storm.best", { n: st.best }))),
      h("p", { class: "ts-final", id: "ts-final" }, String(st.score)),
      h("p", { id: "ts-summary" }, t("tr.storm.summary", { score: st.score, combo: st.best_combo, mistakes: st.mistakes })),
      st.record ? h("p", { class: "ts-record", id: "ts-record" }, "★ ", t("tr.storm.record")) : null,
      h("button", { type: "button", class: "primary big", id: "ts-again", onclick: start }, t("tr.storm.again")),
      st.review?.length ? [h("h3", {}, t("tr.storm.review")), h("ol", { class: "ts-review", id: "ts-review" },
        st.review.map((p) => h("li", { class: `ts-r-${p.result || "none"}` },
          h("span", { class: "ts-mark" }, p.result === "optimal" ? "✓" : p.result ? "✗" : "·"),
          " ", t("tr.length.n", { n: p.optimal }), " ",
          h("a", { href: p.url }, t("tr.storm.try")))))] : null);
  }

  function render() {
    view.dataset.phase = v.phase;
    view.dataset.storm = v.storm?.id || "";
    view.dataset.puzzle = v.puzzle?.id || "";
    view.dataset.code = v.puzzle?.code || "";  // public like the rest of the puzzle (its link, once over)
    playArea.hidden = v.phase !== "playing" && v.phase !== "sending";
    if (v.play && !playArea.hidden) v.play.redraw();
    board.setInteractive(v.phase === "playing");
    els.flash.hidden = !v.flash || playArea.hidden;
    if (v.flash) {
      els.flash.textContent = v.flash.text;
      els.flash.className = `ts-flash ${v.flash.ok ? "ts-ok" : "ts-miss"}`;
      // Restart the animation for each answer.
      void els.flash.offsetWidth;
      els.flash.classList.add("ts-show");
    }
    renderPanel(); renderTop(); renderLine(); renderControls();
  }

  function handleKey(e) {
    if (v.phase !== "playing") return false;
    if (board.handleKey(e)) return true;
    if (e.key === "u" || e.key === "Backspace") { v.play?.undo(); renderLine(); renderControls(); return true; }
    if (e.key === "r" || e.key === "Escape") { v.play?.reset(); renderLine(); renderControls(); return true; }
    return false;
  }

  render();
  return { render, handleKey, destroy: () => clearInterval(ticker) };
}
