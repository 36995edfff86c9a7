// Micro Robots in the web shell: a race, not an auction.  Its own action
// panel (the dice, one big "Announce!" button, the route as it is played)
// sits beside the board; the board takes taps on the allowed spaces; its solo
// puzzles are routes (trainer.js).

import { el } from "../../svg.js";
import { t, tg, movesText } from "../../i18n.js";
import { h, fill, toast } from "../../ui.js";
import { cues } from "../../cues.js";
import { MicroBoardView, dice, spaceName, SPACE_COLORS } from "./board.js";
import STRINGS from "./strings.js";
import { trainer } from "./trainer.js";
import { howTo } from "./howto.js";

const NAME = "micro-robots";
const spaceAt = (state, cell) => (state?.board && cell ? state.board[cell[0]][cell[1]] : null);

function thumbnail(size = 44) {
  const svg = el("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "game-thumb", "aria-hidden": "true" });
  const colors = ["pink", "yellow", "blue", "red", "green", "white", "green", "pink", "yellow"];
  colors.forEach((c, k) => svg.append(el("rect", { x: 1 + (k % 3) * 13, y: 1 + Math.floor(k / 3) * 13, width: 12, height: 12, rx: 2, fill: SPACE_COLORS[c], stroke: "#3b372f", "stroke-width": 0.8 })));
  svg.append(el("circle", { cx: 20, cy: 20, r: 5, fill: "#e8f4ff", stroke: "#234", "stroke-width": 1.5 }));
  return svg;
}

/** The chips a player holds: one small clear disc each. */
function chips(n) {
  return Array.from({ length: n }, () => {
    const svg = el("svg", { viewBox: "0 0 20 20", width: 16, height: 16, class: "chip-icon", "aria-hidden": "true" });
    svg.append(el("circle", { cx: 10, cy: 10, r: 8, fill: "#dfe9f2", stroke: "#34495e", "stroke-width": 1.5 }));
    return svg;
  });
}

function resultLine(r, nameOf) {
  if (r.success) return t("mr.result.won", { name: nameOf(r.winner), n: movesText(r.announced) });
  const why = t(`mr.reason.${r.reason}`, { n: r.announced ?? "" });
  const failed = t("mr.result.failed", { name: nameOf(r.announcer), n: r.announced ?? "?", why });
  return r.penalty_to ? `${failed} ${t("mr.result.penalty", { name: nameOf(r.penalty_to) })}` : failed;
}

/** The announce panel: built once, so a number being typed is never lost on an update. */
function createPanel(send) {
  const diceBox = h("div", { class: "mr-dice", "aria-live": "polite" });
  const input = h("input", { type: "number", id: "announce-input", min: 1, max: 99, inputmode: "numeric" });
  const button = h("button", { type: "submit", class: "primary big", id: "announce" });
  const form = h("form", { class: "announce-form", onsubmit: (e) => {
    e.preventDefault();
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < 1 || n > 99) { input.focus(); return; }
    send("announce", { moves: n });
    input.value = "";
  } }, h("label", { for: "announce-input", id: "announce-label" }), h("div", { class: "bid-row" }, input, button));
  const status = h("p", { class: "announced", id: "announced" });
  const supply = h("p", { class: "muted small" });
  const note = h("p", { class: "muted small copper" });
  const el = h("div", { class: "mr-panel" }, h("h2", { id: "bid-h" }), diceBox, form, status, supply, note);
  let lastRoll = null;
  return {
    el,
    update(state, { seated, nameOf }) {
      const rnd = state.round;
      el.hidden = !rnd;  // before the first roll there is nothing to announce: no empty box
      el.querySelector("#bid-h").textContent = t("mr.panel");
      el.querySelector("#announce-label").textContent = t("mr.announce.label");
      button.textContent = t("mr.announce");
      const target = spaceAt(state, rnd?.target);
      const via = spaceAt(state, rnd?.via);
      const key = rnd ? `${rnd.number}:${rnd.rolled_at}` : null;
      if (key !== lastRoll) {
        const rolled = lastRoll !== null;  // a new throw while watching: the dice roll (CSS, once)
        lastRoll = key;
        fill(diceBox, target ? dice(target, 34, rolled) : null, via ? h("span", { class: "muted small" }, ` ${t("mr.via")}: `) : null,
          via ? dice(via, 22, rolled) : null);
      }
      const canAnnounce = seated && state.phase === "racing";
      input.disabled = button.disabled = !canAnnounce;
      form.hidden = !seated;
      status.textContent = rnd?.announcer ? t("mr.announced", { name: nameOf(rnd.announcer), n: rnd.announced }) : "";
      supply.textContent = t("mr.supply", { n: state.supply ?? 0 });
      note.textContent = t("mr.copper");
    },
  };
}

const goalIcon = (r, size, state) => { const sp = spaceAt(state, r.target); return sp ? dice(sp, size * 0.8) : h("span"); };

/** A room of Micro Robots: the announce panel, the board taking the announcer's moves. */
function room(ctx) {
  const tx = (key, params) => tg(NAME, key, params);
  const board = new MicroBoardView(ctx.board, { send: (type, fields) => ctx.send(type, fields) });
  const panel = createPanel((type, fields) => ctx.send(type, fields));
  const announcing = (s) => s.phase === "demonstration" && !!ctx.me() && s.round?.announcer === ctx.me();
  return {
    panel: panel.el,
    update(s) {
      board.render(s);
      board.setInteractive(announcing(s));
      panel.update(s, { seated: ctx.seated(), nameOf: ctx.nameOf });
    },
    status(s) {
      const rnd = s.round;
      if (!rnd) {
        return [h("div", {}, h("div", { class: "round-n" }, t(`game.${NAME}`)),
          h("div", { class: "target-name" }, s.target_score ? tx("room.target_score", { n: s.target_score }) : tx("room.target_all")))];
      }
      const target = spaceName(spaceAt(s, rnd.target));
      return [goalIcon(rnd, 36, s),
        h("div", {}, h("div", { class: "round-n" }, tx("round.number", { n: rnd.number })),
          h("div", { class: "target-name" }, rnd.via ? t("mr.goal_via", { space: target, via: spaceName(spaceAt(s, rnd.via)) }) : t("mr.goal", { space: target })),
          h("div", { class: "muted small" }, t("mr.active", { space: spaceName(spaceAt(s, rnd.start)), name: rnd.roller ? ctx.nameOf(rnd.roller) : "—" })))];
    },
    phase(s) {
      const rnd = s.round;
      if (s.phase === "racing") return t("mr.phase.racing");
      if (s.phase === "demonstration" && rnd) {
        return announcing(s) ? t("mr.demo.you", { count: rnd.count, n: rnd.announced })
          : t("mr.demo.other", { name: ctx.nameOf(rnd.announcer), count: rnd.count, n: rnd.announced });
      }
      return tx(`phase.${s.phase}`);
    },
    result(s) {
      const last = s.history?.at(-1);
      if (!last || !(s.phase === "intermission" || s.phase === "over")) return null;
      return [goalIcon(last, 36, s), h("div", {}, h("div", { class: "winner", id: "winner" }, resultLine(last, ctx.nameOf)))];
    },
    history(s) {
      const hist = s.history || [];
      return hist.length ? hist.slice().reverse().map((r) => h("li", { "data-round": r.number }, goalIcon(r, 18, s), " ", resultLine(r, ctx.nameOf))) : null;
    },
    /** The route as it is played: each move from one space to the next (apart from the log). */
    moves(s) {
      const route = s.round?.route || [];
      return route.slice(1).map((c, k) => h("li", { "data-move": k + 1 },
        `${spaceName(spaceAt(s, route[k]))} → ${spaceName(spaceAt(s, c))}`));
    },
    demo(s) {
      if (!announcing(s)) return null;
      return [h("p", { class: "small" }, tx("demo.help")),
        h("button", { type: "button", class: "danger", id: "give-up", onclick: () => ctx.send("give_up") }, t("demo.give_up"))];
    },
    clock(s) {
      const rnd = s.round;
      if (s.phase === "racing" && rnd) return { deadline: rnd.reroll_at, key: "mr.clock.reroll" };
      if (s.phase === "demonstration" && rnd?.demo_deadline) return { deadline: rnd.demo_deadline, key: "demo.time_left" };
      if (s.phase === "intermission" && s.intermission_until) return { deadline: s.intermission_until, key: "clock.next" };
      return null;
    },
    myTurn: announcing,
    hostControls: () => null,
    onEvent(ev, s) {
      const me = ctx.me();
      if (ev.type === "robot_moved") ctx.announce(t("mr.ev.moved", { name: ctx.nameOf(ev.player), from: spaceName(spaceAt(s, ev.src)), to: spaceName(spaceAt(s, ev.dst)) }));
      if (ev.type === "announced" && ev.player === me) {
        cues.play("turn");
        cues.notify(t("cue.your_turn"));
        toast(t("mr.your_turn", { n: ev.moves }), "info");
      } else if (ev.type === "round_ended") cues.play(me && ev.winner === me ? "won" : ev.winner ? "lost" : "ding");
      else if (ev.type === "target_rolled") { cues.play("ding"); cues.notify(t("cue.new_round")); }
    },
    onMessage() {},
    onLost: () => false,
    handleKey: (e) => board.handleKey(e),
  };
}

/** The replay of a game of Micro Robots: the board, the dice of the round. */
function replay(wrap) {
  const board = new MicroBoardView(wrap);
  return {
    show(s) { board.render(s); },
    info(s) {
      const rnd = s.round;
      if (!rnd) return [];
      const target = spaceName(spaceAt(s, rnd.target));
      return [goalIcon(rnd, 32, s), h("span", {}, ` ${tg(NAME, "round.number", { n: rnd.number })} · ${rnd.via ? t("mr.goal_via", { space: target, via: spaceName(spaceAt(s, rnd.via)) }) : t("mr.goal", { space: target })}`)];
    },
  };
}

export default {
  name: NAME,
  strings: STRINGS,
  styles: ["style.css"],
  thumbnail,
  room,
  replay,
  trainer,
  howTo,
  roundStart: (ev) => ev.type === "target_rolled",
  tokens: (p) => chips(p.score),
  describe(ev, nameOf, state, live) {
    const sp = (c) => spaceName(spaceAt(state, c));
    switch (ev.type) {
      case "game_started": return t("ev.game_started");
      case "target_rolled": return ev.reason === "round" ? t("mr.ev.rolled", { round: ev.round, name: nameOf(ev.roller), space: sp(ev.target) })
        : t("mr.ev.rerolled", { space: sp(ev.target) });
      case "announced": return t("mr.ev.announced", { name: nameOf(ev.player), n: ev.moves });
      case "robot_moved": return live ? "" : t("mr.ev.moved", { name: nameOf(ev.player), from: sp(ev.src), to: sp(ev.dst) });  // the room lists moves apart
      case "demonstration_ended": return "";
      case "round_ended": {
        const last = state?.history?.find((r) => r.number === ev.round);
        return last ? resultLine(last, nameOf) : "";
      }
      default: return null;
    }
  },
  optionFields(d) {
    const arrangement = h("select", { name: "arrangement" },
      h("option", { value: "random" }, t("mr.opt.arrangement.random")), h("option", { value: "A0B0C0D0" }, t("mr.opt.arrangement.shipped")));
    return [
      h("label", {}, t("mr.opt.arrangement"), " ", arrangement),
      h("p", { class: "muted small" }, t("mr.copper")),
      h("details", { class: "rules" }, h("summary", {}, t("opt.more")),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "expert" }), " ", t("mr.opt.expert")),
        h("label", {}, t("mr.opt.reroll"), " ", h("input", { type: "number", name: "reroll_seconds", min: 30, max: 600, value: d.reroll_seconds ?? 180 })),
        h("label", {}, tg(NAME, "opt.target_score"), " ", h("input", { type: "number", name: "target_score", min: 1, max: 25, value: d.target_score ?? 5 }))),
    ];
  },
  readOptions(f) {
    return { arrangement: f.get("arrangement") || "random", expert: f.get("expert") === "on",
      reroll_seconds: Number(f.get("reroll_seconds")) || 180, target_score: Number(f.get("target_score")) || 5 };
  },
};
