// A room: the board, the round (chip, sand clock, bids), the demonstration,
// players and scores, host controls, chat, spectators, history and solutions.
// The server is authoritative: this only shows its state and sends intentions.

import { t, tg, onLangChange, colorName, movesText, errorText, getLang } from "./i18n.js";
import { RoomSocket, api, seatToken } from "./net.js";
import { DIRS } from "./board.js";
import { gameOf } from "./games/index.js";
import { cues } from "./cues.js";
import { h, fill, toast, fmtSeconds, confirmDialog } from "./ui.js";
import { nickname } from "./lobby.js";

const QUICK_BIDS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];  // two rows of six; longer bids are typed

export function mountRoom(root, roomId, { watch = false } = {}) {
  let state = null;          // the public state (shallow-merged from event messages)
  let secrets = null;        // this seat's own secrets ("private" in messages: a RAMbots program…)
  let notFound = false;
  let me = null;             // my player id (null: spectator)
  let myName = null;         // my name (a spectator's too, when they gave one)
  let roomInfo = null;
  let presence = { seats: [], spectators: 0 };
  let shown = null;          // round number whose solution is drawn
  const solutions = new Map();
  // Set-up asked for in the lobby (bots to seat, start at once), done once we are the host.
  let setup = null;
  try { setup = JSON.parse(sessionStorage.getItem(`ricochet.setup.${roomId}`) || "null"); } catch { setup = null; }

  // -- static skeleton (built once; parts are refilled on every update) ------------------
  const els = {
    title: h("h1", { class: "room-title" }),
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
    chatLog: h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" }),
    gameLog: h("ol", { class: "chat-log game-log", id: "game-log", hidden: true }),
    chatTabs: h("div", { class: "tabs", role: "tablist" }),
    chatForm: h("form", { class: "chat-form", id: "chat-form" }),
    spectators: h("p", { class: "spectators muted", id: "spectators" }),
    offline: h("div", { class: "offline-banner", id: "offline", role: "alert", hidden: true }),
    actions: h("div", { class: "room-actions" }),
  };

  // The game's own parts (board, goal, winnings, host controls), chosen by the state's "game".
  let game = null;
  let board = null;
  let gamePanel = null;      // a game's own action panel in place of the bids (Micro Robots: announce)
  const tx = (key, params) => tg(game?.name, key, params);
  function useGame(name) {
    const next = gameOf(name);
    if (game === next && board) return;
    game = next;
    gamePanel = game.createPanel ? game.createPanel((type, fields) => act(type, fields)) : null;
    fill(els.bidPanel, gamePanel ? gamePanel.el : [bidHead, bidForm, quick, yourBid, turnClock, bidsList]);
    board = new game.Board(els.board, {
      send: (type, fields) => act(type, fields),
      onMove: (move) => {
        const color = state?.robots?.[move.robot]?.color;
        act("move", { robot: color ?? move.robot, direction: move.direction, ...(move.stop ? { stop: move.stop } : {}) });
      },
      onSelect: (i) => announce(t("demo.selected", { robot: board.robotName(state.robots[i].color) })),
      onChoose: (n) => { announce(t("demo.transparent.choose", { n })); toast(t("demo.transparent.choose", { n }), "info", 5000); },
    });
  }

  // Bid form: built once so typing is never interrupted by updates.
  const bidInput = h("input", { type: "number", id: "bid-input", name: "moves", min: 1, max: 99, inputmode: "numeric", required: true });
  const bidBtn = h("button", { type: "submit", class: "primary", id: "bid-submit" });
  const bidForm = h("form", { class: "bid-form", id: "bid-form" },
    h("label", { for: "bid-input", id: "bid-label" }), h("div", { class: "bid-row" }, bidInput, bidBtn));
  const quick = h("div", { class: "quick-bids", role: "group" });
  const bidsList = h("ol", { class: "bids", id: "bids" });
  const bidHead = h("h2", { id: "bid-h" });
  const yourBid = h("p", { class: "your-bid", id: "your-bid" });
  const turnClock = h("button", { type: "button", id: "turn-clock", hidden: true, onclick: () => act("turn_clock") });
  bidForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const n = Number(bidInput.value);
    if (!Number.isInteger(n) || n < 1 || n > 99) { bidInput.focus(); return; }
    if (act("bid", { moves: n }) !== null) bidInput.value = "";  // kept when it could not be sent
  });
  for (const n of QUICK_BIDS) {
    quick.append(h("button", { type: "button", class: "quick-bid", "data-moves": n, onclick: () => act("bid", { moves: n }) }, String(n)));
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

  const sr = h("div", { class: "sr-only", "aria-live": "assertive" });
  const announce = (msg) => { sr.textContent = msg; };

  fill(root, h("section", { class: "room" },
    els.offline,
    h("div", { class: "room-head" }, els.title, els.actions),
    h("div", { class: "room-body" },
      h("div", { class: "board-col" },
        h("div", { class: "status" }, els.roundInfo, h("div", { class: "status-right" }, els.phase, els.clock, els.clockBar)),
        els.result, els.board, els.demo),
      h("div", { class: "side-col" }, els.bidPanel, els.join, els.players, els.host, els.history,
        h("section", { class: "panel chat", id: "chat" }, els.chatTabs, els.chatLog, els.gameLog, els.chatForm),
        els.spectators)),
    sr));

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
          if (a.type === "bid") {
            const arrived = myStanding() !== null && myStanding() <= a.fields.moves;
            toast(t(arrived ? "conn.bid_arrived" : "conn.bid_lost", { n: a.fields.moves }), arrived ? "info" : "error", 8000);
            if (!arrived) bidInput.value = String(a.fields.moves);
          } else if (!["ping", "sync", "chat", "request_solution"].includes(a.type)) {
            toast(t("conn.action_unknown"), "info", 8000);
          }
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
        Object.assign(state, msg.state);
        if ("private" in msg) secrets = msg.private;
        onGameEvent(msg.event);
        update();
      },
      onSync: (msg) => { state = { ...msg.state, you: me }; secrets = msg.private ?? secrets; useGame(state.game); update(); },
      onChat: (msg) => addChat(msg),
      onPresence: (msg) => { presence = msg; update(); },
      onSolution: (msg) => {
        solutions.set(msg.round, msg);
        showSolution(msg.round);
      },
      onError: (msg, before) => {
        if (msg.code === "no_room") { notFound = true; fill(root, h("section", { class: "panel" }, h("p", {}, t("room.not_found")), h("a", { href: "/", class: "button" }, t("nav.lobby")))); return; }
        toast(errorText(msg, game?.name), "error", 6000);
        if (before && (msg.code === "join" || msg.code === "full")) me = null;
      },
    });
    s.connect();
    return s;
  }

  // -- events: animations and a readable log -------------------------------------------
  const nameOf = (id) => state?.players?.find((p) => p.id === id)?.name ?? presence.seats.find((p) => p.player === id)?.name ?? String(id);

  function onGameEvent(ev) {
    game.onEvent?.(ev, board, state, { me, toast });
    cue(ev);
    switch (ev.type) {
      case "move_played": board.animate(ev.path); break;
      case "chip_drawn": case "goal_drawn": shown = null; board.showPaths([]); break;
      case "game_reset": shown = null; solutions.clear(); board.showPaths([]); break;
      case "demonstration_started":
        if (ev.player === me) {
          toast(t("demo.you", { cost: 0, bid: ev.bid }), "info");
          // Start with the active robot selected: one less thing to find out.
          setTimeout(() => board.select(state.round?.active ?? 0), 0);
        }
        break;
      case "demonstration_ended":
        if (!ev.success) toast(`${t(`demo.reason.${ev.reason}`, { name: nameOf(ev.player), cost: ev.cost })} ${tx("demo.reset")}`, "info");
        break;
      default: break;
    }
    const line = describe(ev, nameOf, state, game);
    if (line && ev.type !== "round_solved") addSys(line);
  }

  /** Sounds and notifications for what concerns the player (their turn, a clock, a win). */
  function cue(ev) {
    const mine = me && (ev.player === me || ev.winner === me);
    if (ev.type === "clock_started") cues.play("clock");
    else if ((ev.type === "demonstration_started" || ev.type === "announced") && ev.player === me) {
      cues.play("turn");
      cues.notify(t("cue.your_turn"));
    } else if (ev.type === "round_ended" && ev.winner !== undefined) cues.play(mine ? "won" : ev.winner ? "lost" : "ding");
    else if (ev.type === "game_ended") cues.play(me && ev.winners?.includes(me) ? "won" : "lost");
    else if (["chip_drawn", "goal_drawn", "target_rolled", "programs_revealed"].includes(ev.type)) {
      cues.play("ding");
      if (ev.type !== "programs_revealed") cues.notify(t("cue.new_round"));
    }
  }

  function addChat(c) {
    els.chatLog.append(h("li", { class: "chat-line" }, h("b", { class: "chat-name" }, c.player == null ? `${c.name} (${t("room.watching")})` : c.name), " ", h("span", {}, c.text)));
    trimChat();
  }
  function addSys(text) {
    els.gameLog.append(h("li", { class: "sys" }, text));
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

  // People's messages and the game's log: two tabs of one always-visible panel.
  let chatTab = "chat";
  let unread = 0;
  function renderTabs() {
    const tab = (key, label) => h("button", { type: "button", role: "tab", id: `tab-${key}`, "aria-selected": chatTab === key ? "true" : "false",
      class: chatTab === key ? "on" : "", onclick: () => { chatTab = key; if (key === "chat") unread = 0; renderTabs(); } }, label);
    fill(els.chatTabs, tab("chat", unread ? `${t("room.chat")} (${unread})` : t("room.chat")), tab("log", t("room.log")));
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
      const data = await api(`/api/rooms/${encodeURIComponent(roomId)}/events`);
      fill(els.gameLog);
      for (const e of data.events || []) {
        const line = describe(e.event, nameOf, state, game);
        if (line && e.event.type !== "round_solved") els.gameLog.append(h("li", { class: "sys" }, line));
      }
      trim(els.gameLog);
    } catch { /* the log fills from now on */ }
  }

  // -- rendering -----------------------------------------------------------------------
  const getLangKey = () => getLang();
  const isHost = () => me && state?.host === me;
  const seated = () => me && state?.players?.some((p) => p.id === me && p.seated);
  const myStanding = () => state?.round?.standing?.find((b) => b.player === me)?.moves ?? null;

  function update() {
    if (!state) return;
    const rnd = state.round;
    const phase = state.phase;
    els.title.textContent = roomInfo?.name || roomId;
    fill(els.actions,
      h("button", { type: "button", id: "share", onclick: copyLink }, t("room.share")),
      state.phase === "over" ? h("a", { class: "button", href: `/r/${encodeURIComponent(roomId)}?replay=1` }, t("replay.open")) : null,
      seated() ? h("button", { type: "button", id: "leave", onclick: async () => {
        if (!await confirmDialog(t(isHost() ? "confirm.leave_host" : "confirm.leave"), t("room.leave"), t("confirm.stay"))) return;
        act("leave");
        setTimeout(() => location.assign("/"), 200);
      } }, t("room.leave")) : null);

    board.render(state);
    // Before the start the host may arrange the board (Ricochet Pyramids' towers).
    board.setArrange?.(isHost() && state.phase === "lobby" ? (from, to) => act("move_tower", { from, to }) : null);
    const demonstrating = phase === "demonstration" && !!me && (game.demonstrator?.(rnd) ?? rnd?.demonstrator) === me;
    board.setInteractive(demonstrating);
    board.setChoices?.(demonstrating ? rnd?.choices : null);
    if (shown === null) {
      // Everyone sees the moves of the demonstration so far.
      // After the running animations, so a trail never runs ahead of its robot.
      board.idle().then(() => {
        if (shown === null) board.showPaths(state.phase === "demonstration" ? state.round?.paths || [] : [], state.robots);
      });
    }
    if (shown !== null && solutions.has(shown)) {
      // The solution runs from that round's start: the robots are drawn where they were then.
      const past = state.history?.find((r) => r.number === shown);
      if (past) {
        board.setRobots(past.start);
        board.showTokens(past.start);
      }
      board.showPaths(solutions.get(shown).paths, past ? past.start : state.robots);
    }

    // Status line: chip, target, active robot; phase.
    if (rnd) {
      fill(els.roundInfo, game.goalIcon(rnd, 36, state),
        h("div", {}, h("div", { class: "round-n" }, tx("round.number", { n: rnd.number })),
          h("div", { class: "target-name" }, game.goalText(rnd, state)),
          h("div", { class: "muted small" }, game.activeText(rnd, state))));
    } else fill(els.roundInfo, h("div", { class: "round-n" }, state.target_score ? tx("room.target_score", { n: state.target_score }) : ""));
    let phaseText = tx(`phase.${phase}`);
    if (game.phaseText) phaseText = game.phaseText(state, { me, demonstrating, nameOf }) ?? phaseText;
    else if (phase === "demonstration" && rnd) {
      phaseText = demonstrating ? t("demo.you", { cost: rnd.cost, bid: rnd.demo_bid })
        : t("demo.other", { name: nameOf(rnd.demonstrator), cost: rnd.cost, bid: rnd.demo_bid });
    }
    els.phase.textContent = phaseText;
    renderResult();
    els.phase.dataset.phase = phase;
    els.phase.dataset.cost = rnd?.cost ?? rnd?.count ?? 0;  // for tests and styling

    renderDemo(demonstrating);
    renderBids();
    renderPlayers();
    renderHost();
    renderJoin();
    renderHistory();
    fill(els.chatForm.querySelector("#chat-label"), t("room.chat"));
    renderTabs();
    chatInput.placeholder = t("room.chat.placeholder");
    chatSend.textContent = t("room.chat.send");
    const canChat = !!me || !!(myName && roomInfo?.options?.spectator_chat);
    chatInput.disabled = chatSend.disabled = !canChat;
    els.spectators.textContent = `${t("room.spectators")}: ${presence.spectators || 0}`;
    tick();
  }

  function renderDemo(on) {
    els.demo.hidden = !on;
    if (!on) return;
    const dpad = h("div", { class: "dpad", role: "group", "aria-label": t("phase.demonstration") },
      Object.keys(DIRS).map((d) => h("button", { type: "button", class: `dpad-${d}`, "data-dir": d, "aria-label": t("demo.move", { dir: t(`dir.${d}`) }), onclick: () => board.move(d) }, { N: "↑", E: "→", S: "↓", W: "←" }[d])));
    fill(els.demo, h("p", { class: "small" }, tx("demo.help")), game.dpad === false ? null : dpad,
      h("button", { type: "button", class: "danger", id: "give-up", onclick: () => act("give_up") }, t("demo.give_up")));
  }

  function renderResult() {
    // Between rounds the status line tells the result; at the end a summary sits above the board.
    const last = state.history?.at(-1);
    const between = last && (state.phase === "intermission" || state.phase === "over");
    if (between && game.resultLine) {
      fill(els.roundInfo, game.goalIcon(last, 36, state),
        h("div", {}, h("div", { class: "winner", id: "winner" }, game.resultLine(last, nameOf, state))));
    } else if (between) {
      const winnerText = last.result === "won" ? tx("result.won", { name: nameOf(last.winner) }) : tx(`result.${last.result}`);
      const optimal = last.optimal == null ? t("result.optimal_pending") : t("result.optimal", { n: last.optimal });
      fill(els.roundInfo, game.goalIcon(last, 36, state),
        h("div", {}, h("div", { class: "winner", id: "winner" }, winnerText),
          h("div", { class: "small", id: "optimal" }, optimal, " ", solutionButton(last.number))));
    }
    const over = state.phase === "over";
    if (state.phase === "lobby") {
      // Before the start: what to do now, and the rules in one paragraph.
      els.result.hidden = false;
      fill(els.result, h("p", { class: "winner" }, isHost() ? t("room.lobby.host") : t("phase.lobby")),
        h("p", { class: "muted" }, tx("lobby.how.text")));
      return;
    }
    els.result.hidden = !over;
    if (!over) { fill(els.result); return; }
    fill(els.result,
      h("p", { class: "over" }, t("phase.over"), " — ", t("over.winners", { names: (state.winners || []).map(nameOf).join(", ") })),
      h("p", { class: "muted" }, t(`over.reason.${state.end_reason}`), " ",
        h("a", { href: `/r/${encodeURIComponent(roomId)}?replay=1` }, t("replay.open"))));
  }

  function solutionButton(number) {
    const open = shown === number;
    return h("button", { type: "button", class: "small-btn show-solution", "data-round": number, "aria-pressed": open ? "true" : "false",
      onclick: () => {
        if (open) { shown = null; board.showPaths([]); update(); return; }
        shown = number;
        if (solutions.has(number)) showSolution(number); else act("request_solution", { round: number });
        update();
      } }, t(open ? "result.hide_solution" : "result.show_solution"));
  }

  function showSolution(number) {
    if (shown !== number) return;
    update();
  }

  function renderBids() {
    if (gamePanel) { els.bidPanel.hidden = false; gamePanel.update(state, { me, seated: seated(), nameOf, secrets, online: sock.online }); return; }
    // Patched in place (never rebuilt): a half-typed bid keeps its text and its focus.
    const rnd = state.round;
    els.bidPanel.hidden = !rnd;
    if (!rnd) return;
    const online = sock.online;
    const canBid = seated() && (state.phase === "thinking" || state.phase === "bidding") && rnd.open !== false;
    const mine = myStanding();
    bidHead.textContent = t("bid.list");
    bidForm.querySelector("#bid-label").textContent = t("bid.label");
    bidBtn.textContent = t("bid.submit");
    bidInput.disabled = !canBid;
    bidBtn.disabled = !canBid || !online;
    for (const b of quick.children) b.disabled = !canBid || !online || (mine !== null && Number(b.dataset.moves) > mine);
    quick.setAttribute("aria-label", t("bid.label"));
    bidForm.hidden = quick.hidden = yourBid.hidden = !seated();
    yourBid.textContent = mine !== null ? t("bid.yours", { n: mine }) : t("bid.none");
    turnClock.textContent = tx("clock.turn");
    turnClock.disabled = !online;
    renderBidList(rnd);
  }

  /** The bids in the order of the demonstrations (tie-breaks applied); failed attempts struck through. */
  function renderBidList(rnd) {
    const failed = new Set((rnd.attempts || []).filter((a) => !a.success).map((a) => a.player));
    const standing = rnd.standing || [];
    const byPlayer = new Map(standing.map((b) => [b.player, b]));
    const order = rnd.order?.length ? rnd.order.filter((p) => byPlayer.has(p)).map((p) => byPlayer.get(p))
      : (game.bidOrder?.(standing, state) ?? standing);
    const key = JSON.stringify([order.map((b) => [b.player, b.moves]), [...failed], rnd.demonstrator, getLangKey()]);
    if (key === bidsList.dataset.key) return;
    bidsList.dataset.key = key;
    fill(bidsList, order.map((b, k) => h("li", { class: [b.player === me ? "mine" : "", failed.has(b.player) ? "failed" : "", rnd.demonstrator === b.player ? "demonstrating" : ""].filter(Boolean).join(" "), "data-player": b.player },
      h("span", { class: "bid-rank" }, `${k + 1}.`),
      h("span", { class: "bid-name" }, failed.has(b.player) ? h("s", {}, nameOf(b.player)) : nameOf(b.player)),
      h("span", { class: "bid-moves" }, movesText(b.moves)))));
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
          h("span", { class: "pname" }, p.name),
          badges.length ? h("span", { class: "badges muted small" }, ` (${badges.join(", ")})`) : null,
          h("span", { class: "chips", "aria-label": tx("room.chips", { n: p.score }) }, game.tokens(p, state)),
          h("span", { class: "score", "data-score": p.score }, String(p.score)),
          isHost() && s?.bot ? h("button", { type: "button", class: "small-btn", onclick: () => act("remove_bot", { player: p.id }) }, t("room.remove")) : null,
          isHost() && s && !s.bot && !s.online && p.id !== me ? h("button", { type: "button", class: "small-btn remove-player", "data-player": p.id, onclick: async () => {
            if (await confirmDialog(t("confirm.remove_player", { name: p.name }), t("room.remove_player"), t("confirm.keep"))) act("remove_player", { player: p.id });
          } }, t("room.remove_player")) : null);
      })));
  }

  function renderHost() {
    els.host.hidden = !isHost();
    if (!isHost()) return;
    const level = h("select", { id: "bot-level", "aria-label": t("opt.bot_level") },
      ["beginner", "intermediate", "expert", "perfect"].map((lv) => h("option", { value: lv }, t(`room.bot_level.${lv}`))));
    level.value = els.host.querySelector("#bot-level")?.value || "intermediate";
    fill(els.host, h("h2", {}, t("room.host_controls")),
      state.phase === "lobby" ? h("button", { type: "button", class: "primary", id: "start", onclick: () => act("start") }, t("room.start")) : null,
      state.phase !== "lobby" ? h("button", { type: "button", id: "restart", onclick: async () => {
        if (state.phase === "over" || await confirmDialog(t("confirm.restart"), t("room.restart"), t("confirm.keep"))) act("restart");
      } }, t("room.restart")) : null,
      !["lobby", "over"].includes(state.phase) ? h("button", { type: "button", id: "end-game", onclick: async () => {
        if (await confirmDialog(t("confirm.end"), t("room.end"), t("confirm.keep"))) act("end_game");
      } }, t("room.end")) : null,
      awayDemonstrator() ? h("button", { type: "button", id: "skip-demo", onclick: async () => {
        const name = nameOf(state.round.demonstrator);
        if (awayDemonstrator() && await confirmDialog(t("confirm.skip_demo", { name }), t("room.skip_demo", { name }), t("confirm.keep"))) act("skip_demo");
      } }, t("room.skip_demo", { name: nameOf(state.round.demonstrator) })) : null,
      game.hostControls(state, (type, fields) => act(type, fields)),
      h("div", { class: "add-bot" }, level, h("button", { type: "button", id: "add-bot", onclick: () => act("add_bot", { level: level.value }) }, t("room.add_bot"))));
  }

  /** A demonstrator (not me, not a bot) with no connection: the host may skip them (bidding games). */
  function awayDemonstrator() {
    const who = state.phase === "demonstration" ? state.round?.demonstrator : null;
    if (!who || who === me || !game.skipsDemonstrations) return false;
    const seat = presence.seats.find((s) => s.player === who);
    return !!seat && !seat.bot && !seat.online;
  }

  function renderJoin() {
    const show = !me && state.phase !== "over";
    els.join.hidden = !show;
    if (!show) return;
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

  function renderHistory() {
    const hist = state.history || [];
    if (!hist.length) { fill(els.history); els.history.hidden = true; return; }
    els.history.hidden = false;
    if (game.resultLine) {
      fill(els.history, h("h2", {}, t("history")), h("ol", { class: "history-list" }, hist.slice().reverse().map((r) =>
        h("li", { "data-round": r.number }, game.goalIcon(r, 18, state), " ", game.resultLine(r, nameOf, state)))));
      return;
    }
    fill(els.history, h("h2", {}, t("history")), h("ol", { class: "history-list" }, hist.slice().reverse().map((r) => h("li", { "data-round": r.number, "data-optimal": r.optimal ?? "" },
      game.goalIcon(r, 18, state), " ",
      r.result === "won" ? tx("result.won", { name: nameOf(r.winner) }) : tx(`result.${r.result}`), " ",
      h("span", { class: "muted small" }, r.optimal != null ? t("result.optimal", { n: r.optimal }) : ""), " ",
      solutionButton(r.number)))));
  }

  // -- the sand clock (from the server's absolute deadlines, corrected by the offset) ---------
  function tick() {
    if (!state) return;
    const rnd = state.round, now = sock.now();
    let deadline = null, span = null, text = "";
    const own = game.clock?.(state);
    if (own) { deadline = own.deadline; span = own.span; }
    else if (state.phase === "bidding" && rnd?.clock) { deadline = rnd.clock.deadline; span = state.config?.clock_seconds; }
    else if (state.phase === "demonstration" && rnd?.demo_deadline) { deadline = rnd.demo_deadline; }
    else if (state.phase === "intermission" && state.intermission_until) { deadline = state.intermission_until; }
    if (deadline !== null) {
      const left = deadline - now;
      const key = own?.key || { demonstration: "demo.time_left", intermission: "clock.next" }[state.phase] || "clock.left";
      text = tx(key, { s: fmtSeconds(left) });
      els.clock.classList.toggle("urgent", left < 10 && state.phase === "bidding");
    } else if (state.phase === "thinking" && rnd) {
      const wait = rnd.clock_turnable_at - now;
      text = wait > 60 ? tx("clock.idle") : wait > 0 ? tx("clock.turn_in", { s: fmtSeconds(wait) }) : "";
      turnClock.hidden = !(seated() && wait <= 0);
    }
    if (state.phase !== "thinking") turnClock.hidden = true;
    els.clock.textContent = text;
    els.clock.dataset.running = deadline !== null ? "1" : "0";
    const left = deadline !== null ? deadline - now : null;
    if (state.phase === "bidding" && left !== null && left <= 10 && left > 9 && lastTick !== rnd?.number) {
      lastTick = rnd?.number;
      cues.play("tick");
    }
    const myTurn = me && state.phase === "demonstration" && (game.demonstrator?.(rnd) ?? rnd?.demonstrator) === me;
    const name = roomInfo?.name || roomId;
    if (myTurn) cues.tab(`▶ ${t("cue.your_turn")} · ${name}`, "turn");
    else if (left !== null && left > 0) cues.tab(`⏳ ${fmtSeconds(left)} · ${name}`, "clock");
    else cues.tab(`${name} · ${t("app.title")}`, "idle");
    const fillEl = els.clockBar.firstElementChild;
    const frac = deadline !== null && span ? Math.max(0, Math.min(1, (deadline - now) / span)) : 0;
    els.clockBar.hidden = !(state.phase === "bidding" || own?.bar);
    fillEl.style.width = `${(frac * 100).toFixed(1)}%`;
  }
  let lastTick = null;
  const clockTimer = setInterval(tick, 250);

  async function copyLink() {
    const url = `${location.origin}/r/${roomId}`;
    try { await navigator.clipboard.writeText(url); toast(t("room.copied")); } catch { toast(url); }
  }

  // Arrow keys move the selected robot, unless typing in a field.
  const onKey = (e) => {
    if (e.target.closest?.("input, textarea, select")) return;
    if (board.handleKey(e)) e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  onLangChange(() => { update(); });

  // Fallback if the socket cannot open at all: say whether the room exists.
  // (Once: the socket's own "no room" replaces the page, so no toast then.)
  api(`/api/rooms/${encodeURIComponent(roomId)}`).catch((e) => { if (e.status === 404 && !notFound) toast(t("room.not_found"), "error", 10000); });

  return () => { clearInterval(clockTimer); document.removeEventListener("keydown", onKey); sock.close(); };
}

/** One line of text for an event (room log and replay). */
export function describe(ev, nameOf, state, game = gameOf(state?.game)) {
  const own = game.describe(ev, nameOf, state);
  if (own !== null) return own;
  const p = (k, extra = {}) => tg(game.name, `ev.${k}`, { name: nameOf(ev.player), ...extra });
  switch (ev.type) {
    case "player_joined": return t("ev.player_joined", { name: ev.name });
    case "player_left": return p("player_left");
    case "game_paused": return t("ev.game_paused");
    case "game_resumed": {
      const s = ev.paused_for ?? 0;
      return t("ev.game_resumed", { time: s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h` });
    }
    case "game_started": return t("ev.game_started");
    case "bid_placed": return p("bid_placed", { moves: movesText(ev.moves) });
    case "clock_started": return p("clock_started");
    case "clock_ran_out": return tg(game.name, "ev.clock_ran_out");
    case "demonstration_started": return p("demonstration_started", { bid: ev.bid });
    case "move_played": {
      const color = state?.robots?.[ev.move.robot]?.color ?? ev.move.robot;
      const shown = state?.robot_palette?.[color] ?? color;
      return p("move_played", { robot: colorName(shown), dir: t(`dir.${ev.move.direction}`) });
    }
    case "demonstration_ended": return t(`demo.reason.${ev.reason}`, { name: nameOf(ev.player), cost: ev.cost });
    case "round_ended": return ev.result === "won" ? tg(game.name, "result.won", { name: nameOf(ev.winner) }) : tg(game.name, `result.${ev.result}`);
    case "game_ended": return `${t("ev.game_ended")} — ${t("over.winners", { names: (ev.winners || []).map(nameOf).join(", ") })}`;
    default: return t("ev.other", { type: ev.type });
  }
}
