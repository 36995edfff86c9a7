// Solo training ("/train"): the puzzle of the day, rated puzzles near your
// rating, streaks of rising difficulty, graded hints, your rating over time,
// and a name to take your ratings to another device.  Puzzles of every game whose
// module has a trainer part (games/index.js: TrainerModule), played with its board.
// Rated puzzles may be easier or harder, or of a theme (trainer-choices.js).
// The modes that are views of their own (trainer-modes.js: Puzzle Storm, the
// daily archive, the leaderboards) are shown in place of the board.
//
// Offline-first where it matters: once a puzzle is on the page, moves are
// played here (each game's trainer part) with no network; an attempt made offline
// is kept in localStorage and sent when the browser is back online (the
// server checks and rates it then).  Hints, new puzzles and the optimal
// solution need the network.

import { t, onLangChange } from "./i18n.js";
import { api } from "./net.js";
import { h, fill, toast } from "./ui.js";
import { GAMES } from "./games/index.js";
import { chart } from "./trainer-chart.js";
import { ratedChoices, ratedQuery, savedDifficulty, themeLabel } from "./trainer-choices.js";
import { VIEWS } from "./trainer-modes.js";

/** The games with solo puzzles: those whose module has a trainer part, in the lobby's order. */
export const TRAINER_GAMES = Object.values(GAMES).filter((g) => g.trainer).map((g) => g.name);
const MODES = ["daily", "rated", "streak", ...Object.keys(VIEWS)];
const PENDING_KEY = "ricochet.trainer.pending";

/** The local date (YYYY-MM-DD): everyone's puzzle of the day is that of their own calendar. */
function localDate() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** A date asked for in the URL (a daily of the archive), or null. */
function pastDate(text) {
  return /^\d{4}-\d{2}-\d{2}$/.test(text || "") ? text : null;
}

const pending = {
  all: () => { try { return JSON.parse(localStorage.getItem(PENDING_KEY) || "[]"); } catch { return []; } },
  save: (list) => localStorage.setItem(PENDING_KEY, JSON.stringify(list)),
  add(item) { this.save([...this.all().filter((p) => p.id !== item.id), item]); },
  drop(id) { this.save(this.all().filter((p) => p.id !== id)); },
};
const offline = (e) => e && e.status === undefined;  // fetch itself failed: no network

/**
 * Mount the trainer.  opts: {game, mode, code} from the URL ("/train?game=…&mode=…"
 * or "/train/<game>/<code>" for a shared puzzle).
 */
export function mountTrainer(root, opts = {}) {
  const s = {
    game: TRAINER_GAMES.includes(opts.game) ? opts.game : TRAINER_GAMES[0],
    mode: opts.code ? "shared" : (MODES.includes(opts.mode) ? opts.mode : "daily"),
    code: opts.code || null,
    // rated puzzles: a chosen length, style and theme ("": near your rating, any), a difficulty
    length: "", style: "", theme: "", difficulty: savedDifficulty(),
    date: pastDate(opts.date ?? new URLSearchParams(location.search).get("date")),  // a past daily (the archive)
    puzzle: null, hint: null, result: null, me: null, loading: false, locked: false, error: null,
  };
  let board = null, boardGame = null, play = null;
  let view = null, viewKey = null;  // the mounted view of a mode of VIEWS, and its mode and game
  const trainerOf = (game) => GAMES[game].trainer;

  const els = {
    games: h("div", { class: "tr-games", role: "group" }),
    modes: h("div", { class: "tabs tr-modes", role: "tablist" }),
    title: h("h2", { class: "tr-title", id: "tr-title" }),
    goal: h("p", { class: "tr-goal", id: "tr-goal" }),
    counter: h("p", { class: "tr-counter", id: "tr-counter", "aria-live": "polite" }),
    boardWrap: h("div", { class: "board-wrap tr-board", id: "board" }),
    controls: h("div", { class: "tr-controls" }),
    hints: h("div", { class: "tr-hints", id: "tr-hints" }),
    hintText: h("div", { class: "tr-hint-text", id: "tr-hint-text", "aria-live": "polite" }),
    result: h("div", { class: "tr-result panel", id: "tr-result", "aria-live": "polite", hidden: true }),
    rating: h("div", { class: "panel tr-rating", id: "tr-rating" }),
    streak: h("div", { class: "panel tr-streak", id: "tr-streak" }),
    account: h("div", { class: "panel tr-account", id: "tr-account" }),
    view: h("div", { class: "tr-view", id: "tr-view", hidden: true }),
    link: h("p", { class: "muted small tr-link" }),
    h1: h("h1", {}), hintsH2: h("h2", {}),
  };

  const boardCol = h("div", { class: "board-col" },
    h("div", { class: "status tr-status" }, h("div", { class: "tr-info" }, els.title, els.goal), els.counter),
    els.boardWrap, els.controls);
  const hintsPanel = h("div", { class: "panel" }, els.hintsH2, els.hints, els.hintText, els.link);
  const section = h("section", { class: "trainer", "data-loading": "true" },
    h("div", { class: "tr-head" }, els.h1, els.games, els.modes),
    h("div", { class: "tr-body" },
      boardCol, els.view,
      h("div", { class: "side-col" }, els.result, hintsPanel, els.streak, els.rating, els.account)));
  fill(root, section);

  // -- loading puzzles --------------------------------------------------------------------------
  function syncUrl() {
    const date = s.mode === "daily" && s.date ? `&date=${s.date}` : "";
    const url = s.mode === "shared" && s.puzzle ? s.puzzle.url : `/train?game=${s.game}&mode=${s.mode}${date}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  }

  /** A mode of VIEWS: its view in place of the board column (mounted again for another game). */
  function showView() {
    const key = `${s.mode}:${s.game}`;
    if (viewKey !== key) {
      view?.destroy();
      view = VIEWS[s.mode](els.view, {
        game: s.game, me: () => s.me,
        refreshMe: async () => { s.me = await api(`/api/trainer/me?game=${s.game}`).catch(() => s.me); renderSide(); },
        openDaily: (date) => { s.mode = "daily"; s.date = date; load(); },
      });
      viewKey = key;
    }
  }

  function hideView() {
    view?.destroy();
    view = null; viewKey = null;
    fill(els.view);
  }

  let loads = 0;  // only the latest request may set the puzzle (a quick second click wins)
  async function load() {
    const mine = ++loads;
    if (VIEWS[s.mode]) {
      s.loading = false; s.error = null;
      showView();
      syncUrl();
      render();
      return;
    }
    hideView();
    // The old puzzle stays on the page, locked, until the new one is there.
    s.loading = true; s.error = null; s.locked = true;
    render();
    try {
      let p;
      if (s.mode === "daily") p = await api(`/api/puzzles/daily?game=${s.game}&date=${s.date || localDate()}`);
      else if (s.mode === "shared") p = await api(`/api/puzzles/${s.game}/${encodeURIComponent(s.code)}`);
      else if (s.mode === "streak" && s.me?.profiles?.[s.game]?.streak?.current == null) p = null;
      else {
        const extra = s.mode === "rated" ? ratedQuery(s) : "";
        p = await api(`/api/puzzles/next?game=${s.game}&mode=${s.mode}${extra}`);
      }
      if (mine !== loads) return;
      setPuzzle(p);
      s.error = null;
    } catch (e) {
      if (mine !== loads) return;
      s.puzzle = null; s.result = null; s.hint = null; play = null;
      s.error = offline(e) ? t("tr.offline_load") : e.message;
    }
    s.loading = false;
    syncUrl();
    render();
  }

  function setPuzzle(p) {
    s.puzzle = p;
    s.hint = p?.hints || null;
    s.result = p?.played ? { ...p.played, first: false, replayed: true } : null;
    s.locked = !!s.result;
    if (p) s.game = p.game;
    makeBoard();
    play = p ? trainerOf(p.game).start(p, board) : null;
  }

  function makeBoard() {
    const game = s.puzzle?.game || s.game;
    if (board && boardGame === game) return;
    boardGame = game;
    board = trainerOf(game).board(els.boardWrap, onMove);
  }

  // -- playing --------------------------------------------------------------------------------------
  /** A move of the player on the board (the game's trainer part plays it). */
  function onMove(input) {
    if (s.locked || !s.puzzle || !play) return;
    const out = play.play(input) || {};
    if (out.error) { toast(out.error, "error"); return; }
    if (out.solved) submit();
    else if (out.note) toast(out.note, "info", 6000);
    renderCounter();
    renderControls();
  }

  function movesOf() { return play ? play.moves() : []; }

  function undo() {
    if (s.locked || !play) return;
    play.undo();
    renderCounter(); renderControls();
  }

  function reset() {
    if (s.locked || !play) return;
    play.reset();
    renderCounter(); renderControls();
  }

  async function submit(giveUp = false) {
    const p = s.puzzle;
    if (!p || s.locked) return;
    s.locked = true;
    board.setInteractive(false);
    const moves = movesOf();
    try {
      const out = await api(`/api/puzzles/${p.id}/attempt`, { method: "POST", body: { moves } });
      s.result = out;
      s.me = await api(`/api/trainer/me?game=${s.game}`).catch(() => s.me);
    } catch (e) {
      if (offline(e)) {
        // Keep it for later; say what we know here: the moves reached the target, or not.
        pending.add({ id: p.id, moves, game: p.game, at: Date.now() });
        // Graded by the server when it is sent; here only what the page knows: the target was
        // reached in n moves (the optimum is not served before an attempt, unless a hint told it).
        const n = moves.length;
        const optimal = s.hint?.optimal ?? p.optimal;
        const grade = giveUp ? "failed" : optimal == null ? "found" : (n <= optimal ? "optimal" : "found");
        s.result = { result: grade, length: n, optimal, offline: true, first: true, hints: s.hint?.level || 0 };
      } else {
        s.locked = false;
        board.setInteractive(true);
        toast(e.message, "error", 8000);
      }
    }
    render();
  }

  async function askHint(level) {
    const p = s.puzzle;
    if (!p) return;
    if (s.hint && s.hint.level >= level) { renderHints(); return; }
    try {
      s.hint = await api(`/api/puzzles/${p.id}/hint`, { method: "POST", body: { level } });
    } catch (e) {
      toast(offline(e) ? t("tr.offline_hint") : e.message, "error");
      return;
    }
    if (level === 4) showSolution(s.hint.paths, false);
    renderHints(); renderCounter();
  }

  /** The optimal solution drawn on the board; animated from the start when ``animate``. */
  async function showSolution(paths, animate = true) {
    if (!paths || !play) return;
    await play.showSolution(paths, animate);
  }

  // -- rendering ----------------------------------------------------------------------------------------
  function render() {
    section.dataset.loading = s.loading ? "true" : "false";
    section.dataset.puzzle = s.puzzle?.id || "";
    section.dataset.mode = s.mode;
    const viewed = !!VIEWS[s.mode];
    boardCol.hidden = viewed; hintsPanel.hidden = viewed; els.streak.hidden = viewed; els.view.hidden = !viewed;
    renderHead();
    if (viewed) {
      els.result.hidden = true;
      view?.render();
      renderSide();
      return;
    }
    renderBoard();
    renderCounter();
    renderControls();
    renderHints();
    renderResult();
    renderSide();
  }

  function renderSide() {
    renderStreak();
    renderRating();
    renderAccount();
  }

  function renderHead() {
    els.h1.textContent = t("tr.title");
    els.hintsH2.textContent = t("tr.hints");
    fill(els.games, TRAINER_GAMES.map((g) => h("button", {
      type: "button", class: `tr-game${g === s.game ? " on" : ""}`, "data-game": g, "aria-pressed": g === s.game ? "true" : "false",
      onclick: () => { if (g !== s.game || s.mode === "shared") { s.game = g; s.length = s.style = s.theme = ""; s.date = null; if (s.mode === "shared") s.mode = "daily"; load(); } },
    }, GAMES[g].thumbnail(26), t(`game.${g}`))));
    fill(els.modes, MODES.map((m) => h("button", {
      type: "button", role: "tab", id: `tr-mode-${m}`, class: m === s.mode ? "on" : "", "aria-selected": m === s.mode ? "true" : "false",
      onclick: () => { s.mode = m; s.date = null; load(); },
    }, t(`tr.mode.${m}`))), s.mode === "rated" ? choices() : null);
  }

  /** Rated puzzles: near your rating (easier, harder), or of a chosen length, theme and style. */
  function choices() {
    const info = s.me?.games?.[s.game];
    return info ? ratedChoices(info, s, load) : null;
  }

  function renderBoard() {
    makeBoard();
    const p = s.puzzle;
    if (!p) {
      els.boardWrap.classList.add("empty");
      board.render(trainerOf(s.game).empty);
    } else {
      els.boardWrap.classList.remove("empty");
      play.redraw();
      if (s.result?.paths && s.result.replayed) showSolution(s.result.paths, false);
      if (s.hint?.level === 4 && !s.result) showSolution(s.hint.paths, false);
    }
    board.setInteractive(!!p && !s.locked);
  }

  function renderCounter() {
    const p = s.puzzle;
    if (!p) {
      fill(els.title, s.loading ? t("tr.loading") : (s.mode === "streak" ? t("tr.mode.streak") : t("tr.title")));
      fill(els.goal, s.error ? h("span", { class: "error" }, s.error) : (s.mode === "streak" && !s.loading ? t("tr.streak.none") : ""));
      fill(els.counter, "");
      return;
    }
    const what = p.daily ? t("tr.daily_n", { n: p.daily.number, date: p.daily.date }) : s.mode === "streak"
      ? t("tr.streak_n", { n: (s.me?.profiles?.[p.game]?.streak?.current ?? 0) + 1 }) : t("tr.puzzle_rated", { rating: p.rating ?? s.result?.puzzle_rating ?? "?" });
    const tag = p.mode === "archive" ? t("tr.archive.late") : s.mode === "rated" && s.theme ? t("tr.theme.on", { theme: themeLabel(s.theme) }) : null;
    fill(els.title, what, tag ? h("span", { class: "tr-tag", id: "tr-tag" }, tag) : null);
    fill(els.goal, play.goal());
    const known = s.result || (s.hint && s.hint.level >= 1);
    // The optimum is not served with the puzzle: the attempt's outcome or a hint tells it.
    const optimal = s.result?.optimal ?? s.hint?.optimal ?? p.optimal;
    fill(els.counter, h("span", { class: "tr-moves" }, t("tr.moves", { n: movesOf().length, optimal: known && optimal != null ? optimal : "?" })));
  }

  function renderControls() {
    const p = s.puzzle;
    const none = !p || s.locked;
    const n = p ? movesOf().length : 0;
    fill(els.controls,
      h("button", { type: "button", id: "tr-undo", disabled: none || !n, onclick: undo, title: "U" }, "↶ ", t("tr.undo")),
      h("button", { type: "button", id: "tr-reset", disabled: none || !n, onclick: reset, title: "R" }, "⟲ ", t("tr.reset")),
      h("button", { type: "button", id: "tr-giveup", class: "danger", disabled: none, onclick: () => submit(true) }, t("tr.give_up")),
      h("span", { class: "muted small tr-keys" }, p && play ? t(play.keys) : ""));
  }

  function hintLine(level, data) {
    return level === 1 ? t("tr.hint.1.text", { n: data.optimal }) : play.hint(level, data);
  }

  function renderHints() {
    const p = s.puzzle;
    const have = s.hint?.level || 0;
    fill(els.hints, [1, 2, 3, 4].map((level) => h("button", {
      type: "button", class: `small-btn tr-hint${level <= have ? " on" : ""}`, id: `tr-hint-${level}`, disabled: !p,
      onclick: () => askHint(level), title: s.result ? t("tr.hint.free") : t(`tr.hint.cost.${level}`),
    }, `${level}. ${t(`tr.hint.${level}`)}`)));
    fill(els.hintText, p && s.hint ? h("ol", { class: "tr-hint-list" },
      [1, 2, 3, 4].filter((k) => k <= have).map((k) => h("li", { value: k }, hintLine(k, s.hint)))) : h("p", { class: "muted small" }, t("tr.hint.help")));
    fill(els.link, p ? [t("tr.link"), " ", h("a", { href: p.url, id: "tr-share-link" }, `${location.origin}${p.url}`)] : "");
  }

  function renderResult() {
    const r = s.result, p = s.puzzle;
    els.result.hidden = !r || !p;
    if (!r || !p) return;
    const headline = r.result === "optimal" ? t("tr.result.optimal", { n: r.length })
      : r.result === "found" ? t("tr.result.found", { n: r.length, optimal: r.optimal ?? "?" }) : t("tr.result.failed", { optimal: r.optimal });
    const lines = [h("p", { class: `tr-headline tr-${r.result}`, id: "tr-headline" }, headline)];
    if (r.reason && r.result === "failed") lines.push(h("p", { class: "muted small" }, r.reason));
    if (r.offline) lines.push(h("p", { class: "offline-banner small" }, t("tr.offline_sent_later")));
    if (r.hints) lines.push(h("p", { class: "small" }, t("tr.assisted", { n: r.hints })));
    if (r.themes?.length) lines.push(h("p", { class: "small tr-themes", id: "tr-themes" }, r.themes.map(themeLabel).join(" · ")));
    if (r.rating) {
      const c = r.rating.change;
      lines.push(h("p", { class: "tr-change", id: "tr-change" }, t("tr.rating_change", { before: Math.round(r.rating.before), after: Math.round(r.rating.after), change: `${c >= 0 ? "+" : ""}${Math.round(c)}` })));
    } else if (r.streak) {
      lines.push(h("p", { class: "tr-change" }, r.streak.ended ? t("tr.streak.ended", { n: r.streak.reached, best: r.streak.best }) : t("tr.streak.on", { n: r.streak.current, best: r.streak.best })));
    } else if (!r.offline && r.first === false && !r.replayed) {
      lines.push(h("p", { class: "muted small" }, t("tr.not_rated")));
    }
    const buttons = [];
    if (r.paths) buttons.push(h("button", { type: "button", id: "tr-show", onclick: () => showSolution(r.paths) }, "▶ ", t("tr.show_solution")));
    if (s.mode === "daily" && s.date) buttons.push(h("button", { type: "button", id: "tr-archive", onclick: () => { s.mode = "archive"; s.date = null; load(); } }, t("tr.archive.back")));
    if (s.mode !== "daily" && s.mode !== "shared") buttons.push(h("button", { type: "button", class: "primary", id: "tr-next", onclick: load }, t("tr.next")));
    else buttons.push(h("button", { type: "button", class: "primary", id: "tr-next", onclick: () => { s.mode = "rated"; load(); } }, t("tr.more")));
    if (r.retry !== false && r.result !== "optimal") buttons.push(h("button", { type: "button", id: "tr-again", onclick: () => { s.result = null; s.locked = false; play?.reset(); render(); } }, t("tr.again")));
    lines.push(h("div", { class: "tr-buttons" }, buttons));
    if (r.share) {
      const text = `${r.share}\n${location.origin}${p.url}`;
      lines.push(h("div", { class: "tr-share" }, h("code", { id: "tr-share" }, r.share),
        h("button", { type: "button", class: "small-btn", onclick: async () => {
          try { await navigator.clipboard.writeText(text); toast(t("tr.copied")); } catch { toast(text); }
        } }, t("tr.copy"))));
    }
    fill(els.result, lines);
  }

  function renderStreak() {
    const st = s.me?.profiles?.[s.game]?.streak || { current: null, best: 0 };
    fill(els.streak, h("h2", {}, t("tr.mode.streak")),
      h("p", { id: "tr-streak-line" }, st.current == null ? t("tr.streak.best", { best: st.best }) : t("tr.streak.on", { n: st.current, best: st.best })),
      h("p", { class: "muted small" }, t("tr.streak.help")),
      h("button", { type: "button", id: "tr-streak-start", onclick: startStreak }, st.current == null ? t("tr.streak.start") : t("tr.streak.restart")));
  }

  async function startStreak() {
    try {
      await api("/api/trainer/streak", { method: "POST", body: { game: s.game } });
      s.me = await api(`/api/trainer/me?game=${s.game}`);
      s.mode = "streak";
      load();
    } catch (e) { toast(offline(e) ? t("tr.offline_hint") : e.message, "error"); }
  }

  function renderRating() {
    const prof = s.me?.profiles?.[s.game];
    const rating = prof ? Math.round(prof.rating) : 1500;
    fill(els.rating, h("h2", {}, t("tr.rating"), h("span", { class: "tr-rating-value", id: "tr-rating-value" }, String(rating))),
      h("p", { class: "muted small" }, prof?.attempts ? t("tr.rating.detail", { rd: Math.round(prof.rd), n: prof.attempts, game: t(`game.${s.game}`) }) : t("tr.rating.new")),
      chart(s.me?.history || []));
  }

  function renderAccount() {
    const who = s.me?.player;
    if (who?.name) {
      fill(els.account, h("h2", {}, t("tr.account")), h("p", { id: "tr-who" }, t("tr.signed_in", { name: who.name })),
        h("button", { type: "button", id: "tr-logout", onclick: logout }, t("tr.logout")));
      return;
    }
    const name = h("input", { id: "tr-name", name: "name", maxlength: 24, autocomplete: "username", required: true });
    const password = h("input", { id: "tr-password", name: "password", type: "password", minlength: 8, maxlength: 200, autocomplete: "current-password", required: true });
    const form = h("form", { class: "tr-account-form" },
      h("label", { for: "tr-name" }, t("tr.name")), name, h("label", { for: "tr-password" }, t("tr.password")), password,
      h("div", { class: "tr-buttons" },
        h("button", { type: "submit", class: "primary", id: "tr-claim", value: "claim" }, t("tr.claim")),
        h("button", { type: "submit", id: "tr-login", value: "login" }, t("tr.login"))));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const action = e.submitter?.value || "claim";
      try {
        const out = await api(`/api/trainer/${action}`, { method: "POST", body: { name: name.value, password: password.value } });
        const kept = out?.merged?.plays || out?.merged?.games ? ` ${t("tr.merged")}` : "";
        toast(t(action === "claim" ? "tr.claimed" : "tr.logged_in", { name: name.value.trim() }) + kept);
        s.me = await api(`/api/trainer/me?game=${s.game}`);
        if (VIEWS[s.mode]) hideView();  // mounted again: the boards and the best scores are now the account's
        if (action === "login" || VIEWS[s.mode]) load(); else render();
      } catch (err) { toast(offline(err) ? t("tr.offline_hint") : err.message, "error", 8000); }
    });
    fill(els.account, h("h2", {}, t("tr.account")), h("p", { class: "small" }, t(who ? "tr.anonymous" : "tr.anonymous.new")), form);
  }

  async function logout() {
    try { await api("/api/trainer/logout", { method: "POST", body: {} }); } catch (e) { toast(e.message, "error"); return; }
    s.me = await api(`/api/trainer/me?game=${s.game}`).catch(() => null);
    hideView();
    load();
  }

  // -- keys, offline queue, language --------------------------------------------------------------------
  const onKey = (e) => {
    if (e.target.closest?.("input, textarea, select")) return;
    if (VIEWS[s.mode]) { if (view?.handleKey?.(e)) e.preventDefault(); return; }
    if (board?.handleKey(e)) { e.preventDefault(); return; }
    if (e.key === "u" || e.key === "Backspace") { undo(); e.preventDefault(); }
    else if (e.key === "r" || e.key === "Escape") { reset(); e.preventDefault(); }
  };
  document.addEventListener("keydown", onKey);

  async function flush() {
    const list = pending.all();
    for (const item of list) {
      try {
        const out = await api(`/api/puzzles/${item.id}/attempt`, { method: "POST", body: { moves: item.moves } });
        pending.drop(item.id);
        if (s.puzzle?.id === item.id) s.result = out;
        toast(t("tr.sent", { result: t(`tr.short.${out.result}`) }));
      } catch (e) {
        if (offline(e)) return;  // still offline: try again later
        pending.drop(item.id);   // refused (e.g. the puzzle is gone): nothing to retry
      }
    }
    if (list.length) { s.me = await api(`/api/trainer/me?game=${s.game}`).catch(() => s.me); render(); }
  }
  window.addEventListener("online", flush);
  onLangChange(() => render());

  (async () => {
    s.me = await api(`/api/trainer/me?game=${s.game}`).catch(() => null);
    await flush();
    await load();
  })();
  return () => { hideView(); document.removeEventListener("keydown", onKey); window.removeEventListener("online", flush); };
}
