// A room: the page around a game — title, the status line, the board and the game's
// panel (its RoomView: games/index.js), players and scores, host controls, joining,
// the history, chat and the game's log, spectators.  It knows no game: the game's
// module draws and handles everything of its own.  The server is authoritative: this
// only shows its state and sends intentions.

import { t, tg, onLangChange, errorText, playerName } from "./i18n.js";
import { RoomSocket, api, mergeEventState, seatToken } from "./net.js";
import { gameOf, INFO } from "./games/index.js";
import { cues } from "./cues.js";
import { h, fill, toast, fmtSeconds, confirmDialog } from "./ui.js";
import { nickname } from "./lobby.js";
import { openHowTo } from "./howto.js";

const SHELL_ACTIONS = ["ping", "sync", "chat", "start", "restart", "end_game", "leave", "join", "add_bot", "remove_bot", "remove_player"];

export function mountRoom(root, roomId, { watch = false } = {}) {
  let state = null;          // the public state (shallow-merged from event messages)
  let secrets = null;        // this seat's own secrets ("private" in messages: a RAMbots program…)
  let notFound = false;
  let me = null;             // my player id (null: spectator)
  let myName = null;         // my name (a spectator's too, when they gave one)
  let roomInfo = null;
  let presence = { seats: [], spectators: 0 };
  // Set-up asked for in the lobby (bots to seat, start at once), done once we are the host.
  let setup = null;
  try { setup = JSON.parse(sessionStorage.getItem(`ricochet.setup.${roomId}`) || "null"); } catch { setup = null; }

  // -- static skeleton (built once; parts are refilled on every update) ------------------
  const els = {
    title: h("h1", { class: "room-title", translate: "no" }),  // a person's words (as names and chat): never translated
    phase: h("p", { class: "phase", id: "phase", "aria-live": "polite" }),
    clock: h("div", { class: "clock", id: "clock", role: "timer", "aria-label": t("clock.label") }),
    clockBar: h("div", { class: "clock-bar" }, h("div", { class: "clock-fill" })),
    roundInfo: h("div", { class: "round-info", id: "round-info" }),
    board: h("div", { class: "board-wrap", id: "board" }),
    demo: h("div", { class: "demo-bar", id: "demo-bar", hidden: true }),
    result: h("div", { class: "result", id: "result", "aria-live": "polite" }),
    bidPanel: h("section", { class: "panel bid-panel", id: "bid-panel", "aria-labelledby": "bid-h" }),
    players: h("section", { class: "panel players", id: "players" }),
    host: h("section", { class: "panel host", id: "host-controls", hidden: true }),
    join: h("section", { class: "panel join", id: "join", hidden: true }),
    history: h("section", { class: "panel history", id: "history" }),
    moves: h("section", { class: "panel moves", id: "moves", "aria-labelledby": "moves-h", hidden: true }),
    chatLog: h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" }),
    gameLog: h("ol", { class: "chat-log game-log", id: "game-log", hidden: true }),
    chatTabs: h("div", { class: "tabs", role: "tablist" }),
    chatForm: h("form", { class: "chat-form", id: "chat-form" }),
    spectators: h("p", { class: "spectators muted", id: "spectators" }),
    offline: h("div", { class: "offline-banner", id: "offline", role: "alert", hidden: true }),
    // Notices (refusals, a connection report): in the flow of the page, never over the board.
    notices: h("div", { class: "notices", id: "notices", "data-notices": "", "aria-live": "polite" }),
    actions: h("div", { class: "room-actions" }),
  };

  // The game's own part of the room (its RoomView), chosen by the state's "game".
  let game = null;
  let view = null;
  const tx = (key, params) => tg(game?.name, key, params);
  function useGame(name) {
    const next = gameOf(name);
    if (game === next && view) return;
    game = next;
    view = game.room({
      board: els.board,
      send: (type, fields) => act(type, fields),
      me: () => me,
      seated: () => seated(),
      isHost: () => isHost(),
      online: () => sock.online,
      secrets: () => secrets,
      presence: () => presence,
      nameOf: (id) => nameOf(id),
      shortName: (id) => shortName(id),
      announce: (msg) => announce(msg),
      redraw: () => update(),
    });
    fill(els.bidPanel, view.panel);
  }

  const chatInput = h("input", { id: "chat-input", name: "text", maxlength: 300, autocomplete: "off" });
  const chatSend = h("button", { type: "submit" });
  els.chatForm.append(h("label", { for: "chat-input", class: "sr-only", id: "chat-label" }), chatInput, chatSend);
  els.chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    act("chat", { text });
    chatInput.value = "";
  });

  // Screen readers: what concerns me now (my turn, my moves) at once; what happens at the table politely.
  const sr = h("div", { class: "sr-only", id: "sr-now", "aria-live": "assertive" });
  const srLog = h("div", { class: "sr-only", id: "sr-log", "aria-live": "polite" });
  // Said within a moment of each other, they are said together (the last would silence the first).
  let saidAt = 0;
  const announce = (msg) => {
    const now = Date.now();
    sr.textContent = now - saidAt < 1000 && sr.textContent ? `${sr.textContent} ${msg}` : msg;
    saidAt = now;
  };
  let myTurnBefore = false;

  const boardCol = h("div", { class: "board-col" },
    h("div", { class: "status" }, els.roundInfo, h("div", { class: "status-right" }, els.phase, els.clock, els.clockBar)),
    els.result, els.board);
  const sideCol = h("div", { class: "side-col" }, els.bidPanel, els.moves, els.join, els.players, els.host, els.history,
    h("section", { class: "panel chat", id: "chat" }, els.chatTabs, els.chatLog, els.gameLog, els.chatForm),
    els.spectators);
  fill(root, h("section", { class: "room" },
    els.offline,
    h("div", { class: "room-head" }, els.title, els.actions),
    h("div", { class: "room-body" }, boardCol, sideCol),
    sr, srLog));
  // Where the controls of a turn and the notices go.  Wide screens: at the top of the column beside
  // the board (in view without scrolling, the board never pushed down); phones: the notices between
  // the status line and the board, the controls right under the board.
  const wide = matchMedia("(min-width: 900px)");
  function place() {
    if (wide.matches) sideCol.prepend(els.demo, els.notices);
    else { els.board.before(els.notices); els.board.after(els.demo); }
  }
  place();
  wide.addEventListener("change", place);
  // A refusal or a connection report stays in the game's log too, after its notice has gone.
  els.notices.addEventListener("notice", (e) => { if (e.detail.kind !== "info") addSys(e.detail.message, "notice"); });

  // -- socket ------------------------------------------------------------------------------
  /** Send an action; refused visibly (never dropped silently) while the connection is down. */
  function act(type, fields = {}) {
    const ref = sock.send(type, fields);
    if (ref === null) toast(t("conn.not_sent"), "error", 6000);
    return ref;
  }

  // A watcher sends their nickname too: rooms may let spectators chat (tagged as watching).
  let sock = makeSocket(watch || seatToken.get(roomId) || nickname.get() ? nickname.get() || null : null, watch);

  function makeSocket(name, spectate) {
    const s = new RoomSocket(roomId, { name, spectate: spectate || !name && !seatToken.get(roomId) }, {
      onStatus: (st) => {
        const conn = document.getElementById("conn");
        if (conn) {
          conn.textContent = st === "open" ? "" : t(st === "reconnecting" ? "room.reconnecting" : st === "closed" ? "room.not_found" : "room.connecting");
          conn.className = `conn conn-${st}`;
        }
        els.offline.hidden = st === "open" || st === "connecting";
        els.offline.textContent = t(st === "closed" ? "conn.closed" : "conn.offline");
        if (state) update();
      },
      onResumed: (lost) => {
        // Actions sent as the connection dropped: say what became of each (the state tells).
        for (const a of lost) {
          if (["ping", "sync", "chat"].includes(a.type)) continue;
          if (SHELL_ACTIONS.includes(a.type) || !view?.onLost(a)) toast(t("conn.action_unknown"), "info", 8000);
        }
      },
      onWelcome: (msg) => {
        roomInfo = msg.room;
        me = msg.you?.player ?? null;
        myName = msg.you?.name ?? null;
        state = msg.state;
        secrets = msg.private ?? null;
        useGame(state.game);
        presence = msg.presence || presence;
        fill(els.chatLog);
        restoreLog();
        for (const c of msg.chat || []) addChat(c);
        if (setup && me && state.host === me && state.phase === "lobby") {
          sessionStorage.removeItem(`ricochet.setup.${roomId}`);
          for (const level of setup.bots || []) act("add_bot", { level });
          if (setup.start) act("start");
          setup = null;
        }
        update();
      },
      onEvent: (msg) => {
        const merged = mergeEventState(state, msg.state);
        if (!merged) { s.resync(); return; }  // a list to extend that this page lacks: the whole state comes
        state = merged;
        if ("private" in msg) secrets = msg.private;
        onEvent(msg.event, msg.version);
        update();
      },
      onSync: (msg) => {
        state = { ...msg.state, you: me }; secrets = msg.private ?? secrets;
        if (roomInfo && Number.isInteger(msg.game_number)) roomInfo.game_number = msg.game_number;  // a reset it covered
        useGame(state.game); update();
      },
      onChat: (msg) => addChat(msg),
      onPresence: (msg) => { presence = msg; update(); },
      onMessage: (msg) => view?.onMessage(msg),
      onError: (msg, before) => {
        if (msg.code === "no_room") { notFound = true; fill(root, h("section", { class: "panel" }, h("p", {}, t("room.not_found")), h("a", { href: "/", class: "button" }, t("nav.lobby")))); return; }
        toast(errorText(msg, game?.name), "error", 6000);
        if (before && (msg.code === "join" || msg.code === "full")) me = null;
      },
    });
    s.connect();
    return s;
  }

  // -- events: the game's own reactions, sounds and a readable log ------------------------------
  const seatOf = (id) => presence.seats.find((p) => p.player === id);
  const rawName = (id) => state?.players?.find((p) => p.id === id)?.name ?? seatOf(id)?.name ?? String(id);
  const levelsOf = (id) => (seatOf(id)?.bot ? [seatOf(id).level] : []);
  /** A player's name as shown (a bot's level in the page's language); short: without it. */
  const nameOf = (id) => playerName(rawName(id), levelsOf(id));
  const shortName = (id) => playerName(rawName(id), levelsOf(id), true);

  function onEvent(ev, version) {
    if (ev.type === "game_reset" && roomInfo && ev.game) roomInfo.game_number = ev.game;  // a new game of the room
    if (game.roundStart(ev)) fill(els.notices);  // a new round: the last one's notices are old news
    view.onEvent(ev, state);
    if (ev.type === "game_ended") cues.play(me && ev.winners?.includes(me) ? "won" : "lost");
    const line = describe(ev, nameOf, state, game, true);
    if (line) { addSys(line, "", version); srLog.textContent = line; }
  }

  function addChat(c) {
    els.chatLog.append(h("li", { class: "chat-line" }, h("b", { class: "chat-name" }, h("span", { translate: "no" }, c.name), c.player == null ? ` (${t("room.watching")})` : ""), " ", h("span", { translate: "no" }, c.text)));
    trimChat();
  }
  function addSys(text, kind = "", version = null) {
    els.gameLog.append(h("li", { class: kind ? `sys ${kind}` : "sys", "data-version": version ?? undefined }, text));
    trim(els.gameLog);
  }
  function trimChat() {
    trim(els.chatLog);
    if (chatTab !== "chat") { unread += 1; renderTabs(); }
  }
  function trim(list) {
    while (list.children.length > 300) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  // People's messages and the game's log: two tabs of one always-visible panel.  Their buttons,
  // like the host's and the room's actions, are built once and only patched: a page rebuilt at every
  // message would lose a click whose press and release fall on either side of a rebuild.
  let chatTab = "chat";
  let unread = 0;
  const tabs = Object.fromEntries(["chat", "log"].map((key) => [key, h("button", { type: "button", role: "tab", id: `tab-${key}`,
    onclick: () => { chatTab = key; if (key === "chat") unread = 0; renderTabs(); } })]));
  els.chatTabs.append(tabs.chat, tabs.log);
  function renderTabs() {
    for (const [key, button] of Object.entries(tabs)) {
      button.setAttribute("aria-selected", chatTab === key ? "true" : "false");
      button.className = chatTab === key ? "on" : "";
    }
    tabs.chat.textContent = unread ? `${t("room.chat")} (${unread})` : t("room.chat");
    tabs.log.textContent = t("room.log");
    els.chatLog.hidden = chatTab !== "chat";
    els.gameLog.hidden = chatTab !== "log";
    els.chatForm.hidden = chatTab !== "chat";
    trim(chatTab === "chat" ? els.chatLog : els.gameLog);
  }

  /** After a (re)load: the game's log so far, from the room's public event log. */
  let logFor = null;
  async function restoreLog() {
    const key = `${roomInfo?.game_number}`;
    if (logFor === key) return;
    logFor = key;
    try {
      const events = [];
      for (let after = 0; ;) {  // page after page
        const data = await api(`/api/rooms/${encodeURIComponent(roomId)}/events?after=${after}`);
        events.push(...(data.events || []));
        if (data.next === null || data.next === undefined) break;
        after = data.next;
      }
      // What came live while the log was on its way stays (the log ends where those begin); so do notices.
      const last = events.at(-1)?.version ?? 0;
      const kept = [...els.gameLog.children].filter((li) => li.classList.contains("notice") || Number(li.dataset.version) > last);
      fill(els.gameLog);
      for (const e of events) {
        const line = describe(e.event, nameOf, state, game, true);
        if (line) els.gameLog.append(h("li", { class: "sys", "data-version": e.version }, line));
      }
      els.gameLog.append(...kept);
      trim(els.gameLog);
    } catch { /* the log fills from now on */ }
  }

  // -- rendering -----------------------------------------------------------------------
  /** The replay of this room's game (its number: after "Play again" the last one stays a link away). */
  const replayLink = () => `/r/${encodeURIComponent(roomId)}?replay=1${roomInfo?.game_number ? `&game=${roomInfo.game_number}` : ""}`;
  const isHost = () => me && state?.host === me;
  const seated = () => me && state?.players?.some((p) => p.id === me && p.seated);

  /** An element built once: shown or hidden, and its words in the page's language. */
  function show(el, shown, text) {
    el.hidden = !shown;
    if (el.textContent !== text) el.textContent = text;
  }
  const actions = {
    howTo: h("button", { type: "button", id: "how-to", hidden: true, onclick: () => openHowTo(game) }),
    share: h("button", { type: "button", id: "share", onclick: copyLink }),
    replay: h("a", { class: "button", hidden: true }),
    leave: h("button", { type: "button", id: "leave", hidden: true, onclick: async () => {
      if (!await confirmDialog(t(isHost() ? "confirm.leave_host" : "confirm.leave"), t("room.leave"), t("confirm.stay"))) return;
      act("leave");
      setTimeout(() => location.assign("/"), 200);
    } }),
  };
  els.actions.append(actions.howTo, actions.share, actions.replay, actions.leave);

  function update() {
    if (!state) return;
    const phase = state.phase;
    els.title.textContent = roomInfo?.name || roomId;
    show(actions.howTo, !!game.howTo, t("howto.open"));
    show(actions.share, true, t("room.share"));
    show(actions.replay, state.phase === "over", t("replay.open"));
    actions.replay.href = replayLink();
    show(actions.leave, !!seated(), t("room.leave"));

    view.update(state);
    els.bidPanel.hidden = !!view.panel.hidden;
    const myTurn = !!view.myTurn(state);
    if (myTurn && !myTurnBefore) announce(t("cue.your_turn"));  // whose turn, said as it comes
    myTurnBefore = myTurn;
    // The status line: the game's round and goal, or between rounds how the last one ended; the phase.
    fill(els.roundInfo, view.result(state) ?? view.status(state));
    els.phase.textContent = view.phase(state);
    renderResult();
    els.phase.dataset.phase = phase;
    root.querySelector(".room").dataset.phase = phase;  // a game's styles may follow its phases
    els.phase.dataset.cost = state.round?.cost ?? state.round?.count ?? 0;  // for tests and styling

    const demo = view.demo(state);
    els.demo.hidden = !demo;
    if (demo) fill(els.demo, demo);
    renderPlayers();
    renderHost();
    renderJoin();
    renderHistory();
    renderMoves();
    fill(els.chatForm.querySelector("#chat-label"), t("room.chat"));
    renderTabs();
    chatInput.placeholder = t("room.chat.placeholder");
    chatSend.textContent = t("room.chat.send");
    const canChat = !!me || !!(myName && roomInfo?.options?.spectator_chat);
    chatInput.disabled = chatSend.disabled = !canChat;
    els.spectators.textContent = `${t("room.spectators")}: ${presence.spectators || 0}`;
    tick();
  }

  function renderResult() {
    // Before the start: what to do now, and the rules in one paragraph.  At the end: who won.
    const over = state.phase === "over";
    if (state.phase === "lobby") {
      els.result.hidden = false;
      fill(els.result, h("p", { class: "winner" }, isHost() ? t("room.lobby.host") : t("phase.lobby")),
        h("p", { class: "muted" }, tx("lobby.how.text")));
      return;
    }
    els.result.hidden = !over;
    if (!over) { fill(els.result); return; }
    fill(els.result,
      h("p", { class: "over" }, t("phase.over"), " — ", winnersText(state.winners, nameOf)),
      h("p", { class: "muted" }, t(`over.reason.${state.end_reason}`), " ",
        h("a", { href: replayLink() }, t("replay.open"))),
      // Play again: the same seats and options, started in one click (docs/protocol.md, "restart").
      isHost() ? h("p", {}, h("button", { type: "button", class: "primary", id: "play-again", onclick: () => act("restart", { start: true }) }, t("room.play_again")))
        : seated() ? h("p", { class: "muted small", id: "play-again-wait" }, t("room.play_again.wait")) : null);
  }

  function renderPlayers() {
    const seats = new Map(presence.seats.map((s) => [s.player, s]));
    const rows = (state.players || []).filter((p) => p.seated || p.score).sort((a, b) => b.score - a.score);
    fill(els.players, h("h2", {}, t("room.players")),
      h("p", { class: "muted small" }, state.target_score ? tx("room.target_score", { n: state.target_score }) : tx("room.target_all")),
      h("ul", { class: "player-list" }, rows.map((p) => {
        const s = seats.get(p.id);
        const badges = [p.id === me && t("room.you"), p.id === state.host && t("room.host"),
          s?.bot && `${t("room.bot")} · ${t(`room.bot_level.${s.level}`)}`, (!p.seated || (s && !s.online && !s.bot)) && t("room.away")].filter(Boolean);
        return h("li", { class: `player${p.id === me ? " me" : ""}`, "data-player": p.id },
          h("span", { class: "pname", translate: "no" }, shortName(p.id)),
          badges.length ? h("span", { class: "badges muted small" }, ` (${badges.join(", ")})`) : null,
          h("span", { class: "chips", "aria-label": tx("room.chips", { n: p.score }) }, game.tokens(p, state)),
          h("span", { class: "score", "data-score": p.score }, String(p.score)),
          isHost() && s?.bot ? h("button", { type: "button", class: "small-btn", onclick: () => act("remove_bot", { player: p.id }) }, t("room.remove")) : null,
          isHost() && s && !s.bot && !s.online && p.id !== me ? h("button", { type: "button", class: "small-btn remove-player", "data-player": p.id, onclick: async () => {
            if (await confirmDialog(t("confirm.remove_player", { name: nameOf(p.id) }), t("room.remove_player"), t("confirm.keep"))) act("remove_player", { player: p.id });
          } }, t("room.remove_player")) : null);
      })));
  }

  // The host's controls, built once (an open list of bot levels stays open as the game goes on);
  // the game's own controls (view.hostControls) are its to draw, in a box of their own.
  const host = {
    title: h("h2"),
    start: h("button", { type: "button", class: "primary", id: "start", hidden: true, onclick: () => act("start") }),
    restart: h("button", { type: "button", id: "restart", hidden: true, onclick: async () => {
      if (state.phase === "over" || await confirmDialog(t("confirm.restart"), t("room.restart"), t("confirm.keep"))) act("restart");
    } }),
    end: h("button", { type: "button", id: "end-game", hidden: true, onclick: async () => {
      if (await confirmDialog(t("confirm.end"), t("room.end"), t("confirm.keep"))) act("end_game");
    } }),
    own: h("div", { class: "host-game", style: "display: contents" }),
    level: h("select", { id: "bot-level" }),
    addBot: h("button", { type: "button", id: "add-bot", onclick: () => act("add_bot", { level: host.level.value }) }),
  };
  els.host.append(host.title, host.start, host.restart, host.end, host.own, h("div", { class: "add-bot" }, host.level, host.addBot));
  function renderHost() {
    els.host.hidden = !isHost();
    if (!isHost()) return;
    show(host.title, true, t("room.host_controls"));
    show(host.start, state.phase === "lobby", t("room.start"));
    show(host.restart, state.phase !== "lobby", t("room.restart"));
    show(host.end, !["lobby", "over"].includes(state.phase), t("room.end"));
    fill(host.own, view.hostControls(state));
    const levels = INFO[game.name]?.bot_levels || [];
    const labels = levels.map((lv) => t(`room.bot_level.${lv}`));
    host.level.setAttribute("aria-label", t("opt.bot_level"));
    if ([...host.level.options].map((o) => `${o.value}:${o.text}`).join() !== levels.map((lv, k) => `${lv}:${labels[k]}`).join()) {
      const kept = host.level.value;  // another game or another language: the list again, the choice kept
      fill(host.level, levels.map((lv, k) => h("option", { value: lv }, labels[k])));
      host.level.value = levels.includes(kept) ? kept : levels.includes("intermediate") ? "intermediate" : levels[0];
    }
    show(host.addBot, true, t("room.add_bot"));
  }

  function renderJoin() {
    const show = !me && state.phase !== "over";
    els.join.hidden = !show;
    if (!show) return;
    const form = els.join.querySelector("form");
    if (form) {
      // Built once: every message updates the page, and a name being typed (its caret, an accent
      // being composed) must survive that.  Only the words follow the language.
      form.querySelector("label").textContent = t("lobby.nickname");
      form.querySelector("button").textContent = t("room.join");
      return;
    }
    const input = h("input", { id: "join-name", maxlength: 32, value: nickname.get(), autocomplete: "nickname" });
    fill(els.join, h("form", { class: "join-form", onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) { input.focus(); return; }
      nickname.set(name);
      sock.close();
      sock = makeSocket(name, false);
    } }, h("label", { for: "join-name" }, t("lobby.nickname")), input, h("button", { type: "submit", class: "primary" }, t("room.join"))));
  }

  /** The moves of the round so far, apart from the log (the game's own list). */
  function renderMoves() {
    const items = view.moves?.(state) ?? null;
    els.moves.hidden = !items?.length;
    fill(els.moves, items?.length ? [h("h2", { id: "moves-h" }, tx("moves.title")), h("ol", { class: "move-list", id: "move-list" }, items)] : []);
  }

  function renderHistory() {
    const items = view.history(state);
    els.history.hidden = !items;
    fill(els.history, items ? [h("h2", {}, t("history")), h("ol", { class: "history-list" }, items)] : []);
  }

  // -- the clock (from the server's absolute deadlines, corrected by the offset) ---------
  function tick() {
    if (!state) return;
    const now = sock.now();
    const c = view.clock(state, now);
    let text = "";
    const deadline = c?.deadline ?? null;
    if (deadline !== null) text = tx(c.key || "clock.left", { s: fmtSeconds(deadline - now) });
    else if (c?.text) text = c.text;
    els.clock.classList.toggle("urgent", !!c?.urgent);
    els.clock.textContent = text;
    els.clock.dataset.running = deadline !== null ? "1" : "0";
    const left = deadline !== null ? deadline - now : null;
    const name = roomInfo?.name || roomId;
    if (view.myTurn(state)) cues.tab(`▶ ${t("cue.your_turn")} · ${name}`, "turn");
    else if (left !== null && left > 0) cues.tab(`⏳ ${fmtSeconds(left)} · ${name}`, "clock");
    else cues.tab(`${name} · ${t("app.title")}`, "idle");
    const fillEl = els.clockBar.firstElementChild;
    const frac = deadline !== null && c.span ? Math.max(0, Math.min(1, (deadline - now) / c.span)) : 0;
    els.clockBar.hidden = !c?.bar;
    fillEl.style.width = `${(frac * 100).toFixed(1)}%`;
  }
  const clockTimer = setInterval(tick, 250);

  async function copyLink() {
    const url = `${location.origin}/r/${roomId}`;
    try { await navigator.clipboard.writeText(url); toast(t("room.copied")); } catch { toast(url); }
  }

  // A link out of the room (the brand, "Lobby") while I play a running game: asked first.  My seat
  // stays mine a while (the link brings me back), but the game goes on without me.
  const playing = () => seated() && state && !["lobby", "over"].includes(state.phase);
  const onLeaveLink = async (e) => {
    const link = e.target.closest?.("a[href]");
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || link.target) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname === location.pathname || !playing()) return;
    e.preventDefault();
    if (await confirmDialog(t("confirm.leave_page"), t("room.to_lobby"), t("confirm.stay"))) location.assign(url.href);
  };
  document.addEventListener("click", onLeaveLink);

  // Keys go to the game (arrow keys move the selected robot), unless typing in a field.
  const onKey = (e) => {
    if (e.target.closest?.("input, textarea, select, dialog")) return;  // (a lesson open over the room: its own keys)
    if (view?.handleKey(e)) e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  onLangChange(() => { update(); });
  // Back online, or the page shown again: try at once rather than at the next retry.
  const wake = () => { if (!document.hidden) sock.wake(); };
  addEventListener("online", wake);
  document.addEventListener("visibilitychange", wake);

  // Fallback if the socket cannot open at all: say whether the room exists.
  // (Once: the socket's own "no room" replaces the page, so no toast then.)
  api(`/api/rooms/${encodeURIComponent(roomId)}`).catch((e) => { if (e.status === 404 && !notFound) toast(t("room.not_found"), "error", 10000); });

  return () => {
    clearInterval(clockTimer);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("click", onLeaveLink);
    removeEventListener("online", wake);
    document.removeEventListener("visibilitychange", wake);
    sock.close();
  };
}

/** "Winner: Ann", "Winners: Ann, Bob", or nobody (a game ended with no score: no winner). */
function winnersText(winners, nameOf) {
  if (!winners?.length) return t("over.no_winner");
  return t("over.winners", { count: winners.length, names: winners.map(nameOf).join(", ") });
}

/**
 * One line of text for an event (the room's log when ``live``, the replay's list): the
 * table's events here, the rest the game's.
 */
export function describe(ev, nameOf, state, game = gameOf(state?.game), live = false) {
  const own = game.describe(ev, nameOf, state, live);
  if (own !== null) return own;
  switch (ev.type) {
    case "player_joined": return t("ev.player_joined", { name: playerName(ev.name, INFO[game.name]?.bot_levels) });
    case "player_left": return tg(game.name, "ev.player_left", { name: nameOf(ev.player) });
    case "game_paused": return t("ev.game_paused");
    case "game_resumed": {
      const s = ev.paused_for ?? 0;
      return t("ev.game_resumed", { time: s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h` });
    }
    case "game_ended": return `${t("ev.game_ended")} — ${winnersText(ev.winners, nameOf)}`;
    case "game_reset": return t("ev.game_reset", { game: ev.game ?? "" });
    default: return "";  // nothing readable to say: no raw event name in a log
  }
}
