// The bidding round in the browser, for the games that bid (Ricochet Robots, Ricochet
// Pyramids: ricochet/games/bidding/): the bid panel (a bid form that keeps what is typed,
// quick bids, the bids in the order of the demonstrations), the sand clock, the
// demonstration (the board takes moves; arrows and "give up" under it), the round's
// result and its optimal solution on request, the history, and the log lines of the
// round's events.  A bidding game's module is biddingGame({...its own parts}).

import { t, tg, movesText, colorName, colorLetter, getLang, addStrings } from "./i18n.js";
import { h, fill, toast, fmtSeconds, confirmDialog, loadStyle } from "./ui.js";
import { cues } from "./cues.js";
import { DIRS } from "./gridboard.js";
import STRINGS from "./bidding-strings.js";

addStrings(STRINGS);
loadStyle(new URL("./bidding.css", import.meta.url).href);

const ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };
const QUICK_BIDS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];  // two rows of six; longer bids are typed

/**
 * A bidding game's module (GameModule of games/index.js) from its own parts:
 *   name, strings, styles, thumbnail, optionFields, readOptions, trainer — as in GameModule;
 *   Board — its board view (a GridBoard);
 *   goalIcon(round, size, state), goalText(round, state), activeText(round, state) — the goal drawn;
 *   tokens(player, state) — what a player won;
 *   roundStart(ev) — the event that draws a round's goal (a new round);
 *   newGoal(ev) — the event that draws a goal (a round's first or a redraw);
 *   describe(ev, nameOf, state, live) — its own events' log lines (null: not one);
 *   bidOrder?(standing, state) — before the clock runs out, the order of the demonstrations;
 *   hostControls?(state, send) — the host's controls of the game;
 *   arrange?(board, state, ctx) — after each update: the host's arranging of the board (Pyramids' towers).
 */
export function biddingGame(game) {
  const tx = (key, params) => tg(game.name, key, params);

  function describe(ev, nameOf, state, live) {
    const own = game.describe(ev, nameOf, state, live);
    if (own !== null) return own;
    const p = (k, extra = {}) => tx(`ev.${k}`, { name: nameOf(ev.player), ...extra });
    switch (ev.type) {
      case "game_started": return t("ev.game_started");
      case "bid_placed": return p("bid_placed", { moves: movesText(ev.moves) });
      case "clock_started": return p("clock_started");
      case "clock_ran_out": return tx("ev.clock_ran_out");
      case "demonstration_started": return p("demonstration_started", { bid: ev.bid });
      case "move_played": {
        if (live) return "";  // the room lists the moves apart from its log
        const color = state?.robots?.[ev.move.robot]?.color ?? ev.move.robot;
        const shown = state?.robot_palette?.[color] ?? color;
        return p("move_played", { robot: colorName(shown), dir: t(`dir.${ev.move.direction}`) });
      }
      case "demonstration_ended": return t(`demo.reason.${ev.reason}`, { name: nameOf(ev.player), cost: ev.cost });
      case "round_ended": return ev.result === "won" ? tx("result.won", { name: nameOf(ev.winner) }) : tx(`result.${ev.result}`);
      default: return null;
    }
  }

  function room(ctx) {
    const { send, nameOf } = ctx;
    let shown = null;          // round number whose solution is drawn
    const solutions = new Map();
    let lastTick = null;
    let state = null;

    const board = new game.Board(ctx.board, {
      onMove: (move) => {
        const color = state?.robots?.[move.robot]?.color;
        send("move", { robot: color ?? move.robot, direction: move.direction, ...(move.stop ? { stop: move.stop } : {}) });
      },
      onSelect: (i) => ctx.announce(t("demo.selected", { robot: board.robotName(state.robots[i].color) })),
      onChoose: (n) => { ctx.announce(t("demo.transparent.choose", { n })); toast(t("demo.transparent.choose", { n }), "info", 5000); },
    });

    // The bid form: built once so typing is never interrupted by updates.
    const bidInput = h("input", { type: "number", id: "bid-input", name: "moves", min: 1, max: 99, inputmode: "numeric", required: true });
    const bidBtn = h("button", { type: "submit", class: "primary", id: "bid-submit" });
    const bidForm = h("form", { class: "bid-form", id: "bid-form" },
      h("label", { for: "bid-input", id: "bid-label" }), h("div", { class: "bid-row" }, bidInput, bidBtn));
    const quick = h("div", { class: "quick-bids", role: "group" });
    const bidsList = h("ol", { class: "bids", id: "bids" });
    const bidHead = h("h2", { id: "bid-h" });
    const yourBid = h("p", { class: "your-bid", id: "your-bid" });
    const turnClock = h("button", { type: "button", id: "turn-clock", hidden: true, onclick: () => send("turn_clock") });
    bidForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const n = Number(bidInput.value);
      if (!Number.isInteger(n) || n < 1 || n > 99) { bidInput.focus(); return; }
      if (send("bid", { moves: n }) !== null) bidInput.value = "";  // kept when it could not be sent
    });
    for (const n of QUICK_BIDS) {
      quick.append(h("button", { type: "button", class: "quick-bid", "data-moves": n, onclick: () => send("bid", { moves: n }) }, String(n)));
    }
    const panel = h("div", { class: "bid-panel-body" }, bidHead, bidForm, quick, yourBid, turnClock, bidsList);

    const me = () => ctx.me();
    const myStanding = () => state?.round?.standing?.find((b) => b.player === me())?.moves ?? null;
    const demonstrating = (s) => s.phase === "demonstration" && !!me() && s.round?.demonstrator === me();

    function update(s) {
      state = s;
      board.render(s);
      game.arrange?.(board, s, ctx);
      const mine = demonstrating(s);
      board.setInteractive(mine);
      board.setChoices?.(mine ? s.round?.choices : null);
      if (shown === null) {
        // Everyone sees the moves of the demonstration so far,
        // after the running animations, so a trail never runs ahead of its robot.
        board.idle().then(() => {
          if (shown === null) board.showPaths(state.phase === "demonstration" ? state.round?.paths || [] : [], state.robots);
        });
      }
      if (shown !== null && solutions.has(shown)) {
        // The solution runs from that round's start: the robots are drawn where they were then.
        const past = s.history?.find((r) => r.number === shown);
        if (past) {
          board.setRobots(past.start);
          board.showTokens(past.start);
        }
        board.showPaths(solutions.get(shown).paths, past ? past.start : s.robots);
      }
      renderBids(s);
    }

    // Patched in place (never rebuilt): a half-typed bid keeps its text and its focus.
    function renderBids(s) {
      const rnd = s.round;
      panel.hidden = !rnd;
      if (!rnd) return;
      const online = ctx.online();
      const seated = ctx.seated();
      const canBid = seated && (s.phase === "thinking" || s.phase === "bidding") && rnd.open !== false;
      const mine = myStanding();
      bidHead.textContent = t("bid.list");
      bidForm.querySelector("#bid-label").textContent = t("bid.label");
      bidBtn.textContent = t("bid.submit");
      bidInput.disabled = !canBid;
      bidBtn.disabled = !canBid || !online;
      for (const b of quick.children) b.disabled = !canBid || !online || (mine !== null && Number(b.dataset.moves) > mine);
      quick.setAttribute("aria-label", t("bid.label"));
      bidForm.hidden = quick.hidden = yourBid.hidden = !seated;
      yourBid.textContent = mine !== null ? t("bid.yours", { n: mine }) : t("bid.none");
      turnClock.textContent = tx("clock.turn");
      turnClock.disabled = !online;
      renderBidList(rnd, s);
    }

    /** The bids in the order of the demonstrations (tie-breaks applied); failed attempts struck through. */
    function renderBidList(rnd, s) {
      const failed = new Set((rnd.attempts || []).filter((a) => !a.success).map((a) => a.player));
      const standing = rnd.standing || [];
      const byPlayer = new Map(standing.map((b) => [b.player, b]));
      const order = rnd.order?.length ? rnd.order.filter((p) => byPlayer.has(p)).map((p) => byPlayer.get(p))
        : (game.bidOrder?.(standing, s) ?? standing);
      const key = JSON.stringify([order.map((b) => [b.player, b.moves]), [...failed], rnd.demonstrator, getLang()]);
      if (key === bidsList.dataset.key) return;
      bidsList.dataset.key = key;
      fill(bidsList, order.map((b, k) => h("li", { class: [b.player === me() ? "mine" : "", failed.has(b.player) ? "failed" : "", rnd.demonstrator === b.player ? "demonstrating" : ""].filter(Boolean).join(" "), "data-player": b.player },
        h("span", { class: "bid-rank" }, `${k + 1}.`),
        h("span", { class: "bid-name" }, failed.has(b.player) ? h("s", {}, nameOf(b.player)) : nameOf(b.player)),
        h("span", { class: "bid-moves" }, movesText(b.moves)))));
    }

    function solutionButton(number) {
      const open = shown === number;
      return h("button", { type: "button", class: "small-btn show-solution", "data-round": number, "aria-pressed": open ? "true" : "false",
        onclick: () => {
          if (open) { shown = null; board.showPaths([]); ctx.redraw(); return; }
          shown = number;
          if (!solutions.has(number)) send("request_solution", { round: number });
          ctx.redraw();
        } }, t(open ? "result.hide_solution" : "result.show_solution"));
    }

    function status(s) {
      const rnd = s.round;
      if (!rnd) {
        return [h("div", {}, h("div", { class: "round-n" }, t(`game.${game.name}`)),
          h("div", { class: "target-name" }, s.target_score ? tx("room.target_score", { n: s.target_score }) : tx("room.target_all")))];
      }
      return [game.goalIcon(rnd, 36, s),
        h("div", {}, h("div", { class: "round-n" }, tx("round.number", { n: rnd.number })),
          h("div", { class: "target-name" }, game.goalText(rnd, s)),
          h("div", { class: "muted small" }, game.activeText(rnd, s)))];
    }

    function phase(s) {
      const rnd = s.round;
      if (s.phase === "demonstration" && rnd) {
        return demonstrating(s) ? t("demo.you", { cost: rnd.cost, bid: rnd.demo_bid })
          : t("demo.other", { name: nameOf(rnd.demonstrator), cost: rnd.cost, bid: rnd.demo_bid });
      }
      return tx(`phase.${s.phase}`);
    }

    function result(s) {
      // Between rounds the status line tells the result.
      const last = s.history?.at(-1);
      if (!last || !(s.phase === "intermission" || s.phase === "over")) return null;
      const winnerText = last.result === "won" ? tx("result.won", { name: nameOf(last.winner) }) : tx(`result.${last.result}`);
      const optimal = last.optimal == null ? t("result.optimal_pending") : t("result.optimal", { n: last.optimal });
      return [game.goalIcon(last, 36, s),
        h("div", {}, h("div", { class: "winner", id: "winner" }, winnerText),
          h("div", { class: "small", id: "optimal" }, optimal, " ", solutionButton(last.number)))];
    }

    function history(s) {
      const hist = s.history || [];
      if (!hist.length) return null;
      return hist.slice().reverse().map((r) => h("li", { "data-round": r.number, "data-optimal": r.optimal ?? "" },
        game.goalIcon(r, 18, s), " ",
        r.result === "won" ? tx("result.won", { name: nameOf(r.winner) }) : tx(`result.${r.result}`), " ",
        h("span", { class: "muted small" }, r.optimal != null ? t("result.optimal", { n: r.optimal }) : ""), " ",
        solutionButton(r.number)));
    }

    /** The moves of the demonstration (or of the round's last attempt, once it is over): robot, way. */
    function moves(s) {
      const rnd = s.round;
      if (!rnd) return null;
      const last = rnd.attempts?.at(-1);
      const paths = s.phase === "demonstration" ? rnd.paths || [] : ["intermission", "over"].includes(s.phase) ? last?.paths || [] : [];
      return paths.map((path, k) => {
        const color = s.robots?.[path.robot]?.color;  // a robot's index is its place in the list: it never changes
        const shown = s.robot_palette?.[color] ?? color;
        return h("li", { "data-move": k + 1 }, h("span", { class: "move-letter", "aria-hidden": "true" }, colorLetter(shown)), " ",
          `${colorName(shown)} ${ARROWS[path.direction] ?? ""} ${t(`dir.${path.direction}`)}`,
          path.cost > 1 ? h("span", { class: "muted small" }, ` (${movesText(path.cost)})`) : null);
      });
    }

    function demo(s) {
      if (!demonstrating(s)) return null;
      const dpad = h("div", { class: "dpad", role: "group", "aria-label": t("phase.demonstration") },
        Object.keys(DIRS).map((d) => h("button", { type: "button", class: `dpad-${d}`, "data-dir": d, "aria-label": t("demo.move", { dir: t(`dir.${d}`) }), onclick: () => board.move(d) }, { N: "↑", E: "→", S: "↓", W: "←" }[d])));
      return [dpad, h("div", { class: "demo-side" }, h("p", { class: "small" }, tx("demo.help")),
        h("button", { type: "button", class: "danger", id: "give-up", onclick: () => send("give_up") }, t("demo.give_up")))];
    }

    function clock(s, now) {
      const rnd = s.round;
      let out = null;
      if (s.phase === "bidding" && rnd?.clock) {
        const left = rnd.clock.deadline - now;
        out = { deadline: rnd.clock.deadline, span: s.config?.clock_seconds, key: "clock.left", bar: true, urgent: left < 10 };
        if (left <= 10 && left > 9 && lastTick !== rnd.number) {
          lastTick = rnd.number;
          cues.play("tick");
        }
      } else if (s.phase === "demonstration" && rnd?.demo_deadline) {
        out = { deadline: rnd.demo_deadline, key: "demo.time_left" };
      } else if (s.phase === "intermission" && s.intermission_until) {
        out = { deadline: s.intermission_until, key: "clock.next" };
      } else if (s.phase === "thinking" && rnd) {
        const wait = rnd.clock_turnable_at - now;
        out = { text: wait > 60 ? tx("clock.idle") : wait > 0 ? tx("clock.turn_in", { s: fmtSeconds(wait) }) : "" };
        turnClock.hidden = !(ctx.seated() && wait <= 0);
      }
      if (s.phase !== "thinking") turnClock.hidden = true;
      return out;
    }

    /** A demonstrator (not me, not a bot) with no connection: the host may skip them. */
    function awayDemonstrator(s) {
      const who = s.phase === "demonstration" ? s.round?.demonstrator : null;
      if (!who || who === me()) return false;
      const seat = ctx.presence().seats.find((x) => x.player === who);
      return !!seat && !seat.bot && !seat.online;
    }

    function hostControls(s) {
      const skip = awayDemonstrator(s) ? h("button", { type: "button", id: "skip-demo", onclick: async () => {
        const name = nameOf(state.round.demonstrator);
        if (awayDemonstrator(state) && await confirmDialog(t("confirm.skip_demo", { name }), t("room.skip_demo", { name }), t("confirm.keep"))) send("skip_demo");
      } }, t("room.skip_demo", { name: nameOf(s.round.demonstrator) })) : null;
      return h("div", {}, skip, game.hostControls?.(s, send) ?? null);
    }

    function onEvent(ev, s) {
      state = s;
      const mine = !!me() && (ev.player === me() || ev.winner === me());
      if (ev.type === "clock_started") cues.play("clock");
      else if (ev.type === "demonstration_started" && ev.player === me()) { cues.play("turn"); cues.notify(t("cue.your_turn")); }
      else if (ev.type === "round_ended") cues.play(mine ? "won" : ev.winner ? "lost" : "ding");
      else if (game.roundStart(ev)) { cues.play("ding"); cues.notify(t("cue.new_round")); }
      if (ev.type === "move_played") {
        board.animate(ev.path);
        const color = s.robots?.[ev.move.robot]?.color ?? ev.move.robot;
        const shown = s.robot_palette?.[color] ?? color;
        ctx.announce(tx("ev.move_played", { name: nameOf(ev.player), robot: colorName(shown), dir: t(`dir.${ev.move.direction}`) }));
      }
      else if (game.newGoal(ev)) { shown = null; board.showPaths([]); }
      else if (ev.type === "game_reset") { shown = null; solutions.clear(); board.showPaths([]); }
      else if (ev.type === "demonstration_started" && ev.player === me()) {
        ctx.announce(t("demo.you", { cost: 0, bid: ev.bid }));  // the status line says it on the screen
        // Start with the active robot selected: one less thing to find out.
        setTimeout(() => board.select(state.round?.active ?? 0), 0);
      } else if (ev.type === "demonstration_ended" && !ev.success) {
        toast(`${t(`demo.reason.${ev.reason}`, { name: nameOf(ev.player), cost: ev.cost })} ${tx("demo.reset")}`, "info");
      }
    }

    function onMessage(msg) {
      if (msg.type !== "solution") return;
      solutions.set(msg.round, msg);
      if (shown === msg.round) ctx.redraw();
    }

    function onLost(a) {
      if (a.type === "bid") {
        const mine = myStanding();
        const arrived = mine !== null && mine <= a.fields.moves;
        toast(t(arrived ? "conn.bid_arrived" : "conn.bid_lost", { n: a.fields.moves }), arrived ? "info" : "error", 8000);
        if (!arrived) bidInput.value = String(a.fields.moves);
        return true;
      }
      return a.type === "request_solution";  // asked again when the button is pressed again
    }

    return {
      panel, update, status, phase, result, history, moves, demo, clock, hostControls, onEvent, onMessage, onLost,
      myTurn: demonstrating, handleKey: (e) => board.handleKey(e),
    };
  }

  function replay(wrap) {
    const board = new game.Board(wrap);
    let count = 0;
    return {
      show(s, ev, forward) {
        // Animate single steps forward; fast clicking just jumps.
        if (forward && ev?.type === "move_played" && !board.busy()) board.animate(ev.path);
        board.render(s);
        const mine = ++count;
        board.idle().then(() => { if (mine === count) board.showPaths(s.phase === "demonstration" ? s.round?.paths || [] : [], s.robots || []); });
      },
      info(s) {
        const rnd = s.round;
        return rnd ? [game.goalIcon(rnd, 32, s), h("span", {}, ` ${tx("round.number", { n: rnd.number })} · ${game.goalText(rnd, s)}`)] : [];
      },
    };
  }

  return {
    name: game.name, strings: game.strings, styles: game.styles, trainer: game.trainer, howTo: game.howTo,
    thumbnail: game.thumbnail, optionFields: game.optionFields, readOptions: game.readOptions,
    tokens: game.tokens, roundStart: game.roundStart, describe, room, replay,
  };
}
