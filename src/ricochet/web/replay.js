// Replay of a game from its event log (GET /api/rooms/{id}/events?states=1, page after page):
// step through the events; the game's replay view draws each state (and animates a step
// forward).  It knows no game: the game's module says what starts a round.

import { t, onLangChange, playerName } from "./i18n.js";
import { api, mergeEventState } from "./net.js";
import { h, fill, toast } from "./ui.js";
import { describe } from "./room.js";
import { gameOf, INFO } from "./games/index.js";

export async function mountReplay(root, roomId, { game: number = null } = {}) {
  const boardWrap = h("div", { class: "board-wrap", id: "board" });
  const list = h("ol", { class: "event-list", id: "event-list" });
  const step = h("p", { class: "replay-step", id: "replay-step", "aria-live": "polite" });
  const info = h("div", { class: "round-info" });
  const scores = h("ul", { class: "player-list" });
  const controls = h("div", { class: "replay-controls", role: "group" });
  let entries = [];
  let i = -1;
  let playing = null;
  let speed = 1;
  const rounds = h("div", { class: "replay-rounds", id: "replay-rounds", role: "group" });

  fill(root, h("section", { class: "room replay" },
    h("div", { class: "room-head" }, h("h1", { class: "room-title" }, t("replay.title")),
      h("a", { class: "button", href: "/" }, t("nav.lobby"))),
    h("div", { class: "room-body" },
      h("div", { class: "board-col" }, h("div", { class: "status" }, info, step), boardWrap, controls, rounds),
      h("div", { class: "side-col" }, h("section", { class: "panel" }, h("h2", {}, t("room.players")), scores),
        h("section", { class: "panel" }, h("h2", {}, t("replay.events")), list)))));

  let data;
  try {
    // Pages of the log; each entry's state holds what its event changed: merged in turn, every entry
    // gets the whole state after it (shallow copies: the heavy keys are shared, not copied).
    const base = `/api/rooms/${encodeURIComponent(roomId)}/events?states=1${number ? `&game=${number}` : ""}`;
    let after = 0;
    let state = null;
    for (;;) {
      const page = await api(`${base}&after=${after}`);
      data = data || page;
      state = state || page.state;
      for (const e of page.events || []) {
        state = mergeEventState(state, e.state) ?? { ...state, ...e.state };  // (a whole log always merges)
        entries.push({ ...e, state });
      }
      if (page.next === null || page.next === undefined) { data.board = page.board; break; }
      after = page.next;
    }
  } catch (e) {
    toast(e.message, "error", 8000);
    return () => {};
  }
  const game = gameOf(data.game_name);
  const view = game.replay(boardWrap);
  let last = {};
  // Every entry carries the state after it; keep names stable across the log.
  const names = new Map();
  for (const e of entries) if (e.event.type === "player_joined") names.set(e.event.player, e.event.name);
  // A bot's level in the page's language (the log does not say who is a bot: its name does).
  const nameOf = (id) => playerName(names.get(id) ?? String(id), INFO[game.name]?.bot_levels);

  function stateAt(k) {
    if (k >= 0) return entries[k].state || last;
    // Before the first event: the board as it is at the end, nobody on it yet.
    const first = entries[0]?.state || {};
    return { ...first, game: game.name, board: data.board, robots: [], round: null, players: [] };
  }

  function go(k, animate = false) {
    k = Math.max(-1, Math.min(entries.length - 1, k));
    const ev = k >= 0 ? entries[k].event : null;
    const forward = animate && k === i + 1;
    i = k;
    const s = stateAt(k);
    last = s;
    view.show(s, ev, forward);
    const said = view.info(s);
    fill(info, said?.length ? said : h("span", { class: "round-n" }, t(`game.${game.name}`)));  // never an empty box
    step.textContent = `${t("replay.step", { i: k + 1, n: entries.length })}${ev ? ` — ${describe(ev, nameOf, s)}` : ""}`;
    fill(scores, (s.players || []).map((p) => h("li", {}, h("span", { class: "pname" }, nameOf(p.id)), " ",
      h("span", { class: "chips" }, game.tokens(p, s)), h("span", { class: "score" }, String(p.score)))));
    [...list.children].forEach((li, n) => {
      li.classList.toggle("current", n === k);
      // Scroll the list only (scrollIntoView would scroll the page too).
      if (n === k) list.scrollTop = Math.max(0, li.offsetTop - list.clientHeight / 2);
    });
  }

  function renderControls() {
    const btn = (key, id, fn) => h("button", { type: "button", id, onclick: fn }, t(key));
    fill(controls,
      btn("replay.first", "replay-first", () => go(-1)),
      btn("replay.prev", "replay-prev", () => go(i - 1)),
      btn(playing ? "replay.pause" : "replay.play", "replay-play", togglePlay),
      btn("replay.next", "replay-next", () => go(i + 1, true)),
      btn("replay.last", "replay-last", () => go(entries.length - 1)),
      h("label", { class: "replay-speed" }, t("replay.speed"), " ",
        h("select", { id: "replay-speed", onchange: (e) => { speed = Number(e.target.value); if (playing) { togglePlay(); togglePlay(); } } },
          [0.5, 1, 2, 4].map((v) => h("option", { value: v, selected: v === speed }, `${v}×`)))));
    // A jump to the start of each round.
    const starts = entries.map((e, n) => [e.event, n]).filter(([ev]) => game.roundStart(ev));
    fill(rounds, starts.length ? h("span", { class: "small muted" }, t("replay.rounds")) : null,
      starts.map(([ev, n], k) => h("button", { type: "button", class: "small-btn", "data-entry": n, onclick: () => go(n) },
        String(ev.round ?? k + 1))));
    fill(list, entries.map((e, n) => {
      const text = describe(e.event, nameOf, e.state || {}, game);
      return h("li", { onclick: () => go(n), hidden: !text }, text);  // e.g. an accepted goal check: nothing to say
    }));
  }

  function togglePlay() {
    if (playing) { clearInterval(playing); playing = null; }
    else {
      playing = setInterval(() => {
        if (i >= entries.length - 1) { togglePlay(); return; }
        go(i + 1, true);
      }, 900 / speed);
    }
    renderControls();
    go(i);
  }

  const onKey = (e) => {
    if (e.target.closest?.("input, textarea, select")) return;
    if (e.key === "ArrowRight") { go(i + 1, true); e.preventDefault(); }
    if (e.key === "ArrowLeft") { go(i - 1); e.preventDefault(); }
  };
  document.addEventListener("keydown", onKey);
  if (!entries.length) step.textContent = t("replay.empty");
  renderControls();
  go(-1);
  onLangChange(() => { renderControls(); go(i); });
  return () => { clearInterval(playing); document.removeEventListener("keydown", onKey); };
}
