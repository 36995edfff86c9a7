// RAMbots in the web shell: the goal stack made for the left neighbour, the
// program editor behind the screen (pick a piece, point it or stand it up,
// reorder, up to five — by click, drag and drop, or keyboard), the compile
// cap, and the execution told step by step (which instruction runs and why,
// what it did), with a replay of the round.  Your program and the goal stack
// you make are your secrets: they come in "private", for you only.

import { el } from "../../svg.js";
import { t, tg, colorName, colorLetter, getLang } from "../../i18n.js";
import { h, fill } from "../../ui.js";
import { cues } from "../../cues.js";
import { RamBoardView, pieceIcon, RCOLORS } from "./board.js";
import STRINGS from "./strings.js";
import { pieceName, insName, stepStory, effectWords } from "./story.js";
import { howTo } from "./howto.js";

const NAME = "rambots";
const COLORS = ["red", "yellow", "green", "blue"];
const ORIENTS = ["N", "E", "S", "W", "up"];
const ARROW = { N: "↑", E: "→", S: "↓", W: "←", up: "⊙" };
const same = (a, b) => a.size === b.size && a.color === b.color;

function thumbnail(size = 44) {
  const svg = el("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "game-thumb", "aria-hidden": "true" });
  svg.append(el("rect", { x: 0, y: 0, width: 40, height: 40, rx: 4, fill: "#efe6d2" }));
  for (const [x, y] of [[0, 0], [20, 20]]) svg.append(el("rect", { x, y, width: 20, height: 20, fill: "#c9bca0" }));
  svg.append(el("polygon", { points: "10,3 16,17 4,17", fill: RCOLORS.red, stroke: "#7f1616" }),
    el("polygon", { points: "37,30 23,24 23,36", fill: RCOLORS.blue, stroke: "#0d3b8c" }),
    el("rect", { x: 25, y: 5, width: 8, height: 8, fill: RCOLORS.yellow, stroke: "#7a6100" }));
  return svg;
}

/** Remove one piece like ``p`` from a list of pieces (a copy). */
function without(pieces, p) {
  const k = pieces.findIndex((q) => same(q, p));
  return k < 0 ? pieces : [...pieces.slice(0, k), ...pieces.slice(k + 1)];
}

function createPanel(send) {
  // State kept here between updates: the editor's local draft, so typing and clicking are never undone.
  let draft = null;          // [{size, color, orientation}] while editing
  let goalDraft = [];        // [{size, color}] top first
  let orientation = "N";
  let sendTimer = null;
  let frames = [];           // this round's [state, event] for the replay
  let lastRound = null;
  let preview = null;        // {key, steps, k}: what my draft program would do (the engine's answer), while open
  let editorKey = null;      // what the program editor was last drawn from (renderEditor)
  let onPreview = () => {};  // draw the board again (the preview's frame, or the table)

  const head = h("h2", { id: "bid-h" });
  const info = h("p", { class: "small ram-info", id: "ram-info" });
  const precedence = h("div", { class: "ram-precedence", id: "precedence" });
  const editor = h("div", { class: "ram-editor", id: "ram-editor" });
  const runs = h("div", { class: "ram-runs", id: "ram-runs" });
  const people = h("ul", { class: "ram-players", id: "ram-players" });
  // The editor first: on a phone it comes right under the board, both in view while programming.
  const root = h("div", { class: "ram-panel" }, head, editor, info, precedence, runs, people);
  let ctx = null;
  let state = null;

  const pushProgram = () => {
    clearTimeout(sendTimer);
    sendTimer = setTimeout(() => send("set_program", { program: draft }), 150);
  };

  function pieceButton(p, onclick, extra = {}) {
    return h("button", { type: "button", class: "piece-btn", "data-size": p.size, "data-color": p.color, "aria-label": pieceName(p), onclick, ...extra }, pieceIcon(p.color, p.size, null, 26));
  }

  /** Whether the editor shows something else than when last drawn (``what``, with the language).
   * It is drawn again only then: another player's news (a bot compiling) used to rebuild every
   * button while the player was clicking one, and that click was lost (the mouse went down on a
   * button and up on its replacement). */
  function changed(what) {
    const key = JSON.stringify([what, getLang()]);
    if (key === editorKey) return false;
    editorKey = key;
    return true;
  }

  function renderGoals(me, secrets) {
    const pool = me.pool ?? secrets?.pool ?? [];
    const made = secrets?.goals_made;
    const forName = ctx.nameOf(secrets?.goals_for);
    if (!changed(["goals", pool, made, forName, goalDraft])) return;
    if (made) {
      fill(editor, h("p", {}, t("ram.goals.sent", { name: forName })),
        h("div", { class: "ram-stack" }, made.map((p) => pieceIcon(p.color, p.size, null, 26))));
      return;
    }
    const used = new Set(goalDraft.map((p) => p.color));
    const choices = [];
    for (const p of pool) if (!used.has(p.color) && !choices.some((q) => same(q, p))) choices.push(p);
    fill(editor,
      h("p", {}, t("ram.goals.help", { name: forName })),
      h("div", { class: "ram-pool", role: "group", "aria-label": t("ram.pool") }, choices.map((p) => pieceButton(p, () => { goalDraft.push(p); update(); }))),
      h("ol", { class: "ram-stack-edit" }, goalDraft.map((p, k) => h("li", {},
        pieceIcon(p.color, p.size, null, 26), " ", pieceName(p), " ",
        h("button", { type: "button", class: "small-btn", "aria-label": t("ram.up"), disabled: k === 0, onclick: () => { [goalDraft[k - 1], goalDraft[k]] = [goalDraft[k], goalDraft[k - 1]]; update(); } }, "▲"),
        h("button", { type: "button", class: "small-btn", "aria-label": t("ram.remove"), onclick: () => { goalDraft.splice(k, 1); update(); } }, "✕")))),
      h("button", { type: "button", class: "primary", id: "send-goals", disabled: goalDraft.length !== 4, onclick: () => send("set_goals", { pieces: goalDraft }) }, t("ram.goals.send")));
  }

  function renderEditor(me, secrets) {
    const compiled = !!secrets?.compiled;
    if (draft === null || compiled) draft = (secrets?.program || []).map((i) => ({ ...i }));
    if (!changed(["program", me.pool, secrets?.pool, compiled, draft, orientation, preview,
      state.players.map((p) => [p.id, p.name, p.color])])) return;
    let pool = me.pool ?? secrets?.pool ?? [];
    for (const i of draft) pool = without(pool, i);
    const distinct = [];
    for (const p of pool) if (!distinct.some((q) => same(q, p))) distinct.push(p);
    const orientPick = h("div", { class: "ram-orient", role: "radiogroup", "aria-label": t("ram.orientation") },
      ORIENTS.map((o) => h("button", { type: "button", role: "radio", "aria-checked": o === orientation ? "true" : "false", class: `orient${o === orientation ? " on" : ""}`, "data-orient": o, "aria-label": t(`ram.orient.${o}`), disabled: compiled, onclick: () => { orientation = o; update(); } }, ARROW[o])));
    const add = (p, at = draft.length) => { if (draft.length < 5) { draft.splice(at, 0, { ...p, orientation }); pushProgram(); update(); } };
    const slots = h("ol", { class: "ram-program", id: "ram-program", "aria-label": t("ram.program") });
    draft.forEach((ins, k) => {
      const li = h("li", { class: "slot", draggable: compiled ? "false" : "true", "data-k": k,
        "data-size": ins.size, "data-color": ins.color, "data-orient": ins.orientation },
        pieceIcon(ins.color, ins.size, ins.orientation, 32),
        h("span", { class: "sr-only" }, insName(ins)),
        h("span", { class: "slot-tools" },
          h("button", { type: "button", class: "small-btn", "aria-label": t("ram.turn"), disabled: compiled, onclick: () => { ins.orientation = ORIENTS[(ORIENTS.indexOf(ins.orientation) + 1) % 5]; pushProgram(); update(); } }, "⟳"),
          h("button", { type: "button", class: "small-btn", "aria-label": t("ram.earlier"), disabled: compiled || k === 0, onclick: () => { [draft[k - 1], draft[k]] = [draft[k], draft[k - 1]]; pushProgram(); update(); } }, "◀"),
          h("button", { type: "button", class: "small-btn", "aria-label": t("ram.later"), disabled: compiled || k === draft.length - 1, onclick: () => { [draft[k + 1], draft[k]] = [draft[k], draft[k + 1]]; pushProgram(); update(); } }, "▶"),
          h("button", { type: "button", class: "small-btn", "aria-label": t("ram.remove"), disabled: compiled, onclick: () => { draft.splice(k, 1); pushProgram(); update(); } }, "✕")));
      li.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", JSON.stringify({ from: k })));
      slots.append(li);
    });
    for (let k = draft.length; k < 5; k++) slots.append(h("li", { class: "slot empty", "data-k": k }, t("ram.empty")));
    // Drag a piece from the pool (or a slot) onto a slot to place it there.
    for (const li of slots.children) {
      li.addEventListener("dragover", (e) => { if (!compiled) e.preventDefault(); });
      li.addEventListener("drop", (e) => {
        e.preventDefault();
        let data = null;
        try { data = JSON.parse(e.dataTransfer.getData("text/plain")); } catch { return; }
        const at = Math.min(Number(li.dataset.k), draft.length);
        if (data.from !== undefined) { const [ins] = draft.splice(data.from, 1); draft.splice(Math.min(at, draft.length), 0, ins); pushProgram(); update(); }
        else if (data.piece) add(data.piece, at);
      });
    }
    const poolBox = h("div", { class: "ram-pool", role: "group", "aria-label": t("ram.pool") }, distinct.map((p) => {
      const n = pool.filter((q) => same(q, p)).length;
      const b = pieceButton(p, () => add(p), { draggable: compiled ? "false" : "true", disabled: compiled || draft.length >= 5 });
      if (n > 1) b.append(h("span", { class: "count" }, `×${n}`));
      b.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", JSON.stringify({ piece: p })));
      return b;
    }));
    fill(editor,
      h("div", { class: "ram-row" }, h("span", { class: "small" }, t("ram.orientation")), orientPick),
      poolBox, slots,
      h("div", { class: "ram-row" },
        h("button", { type: "button", class: compiled ? "" : "primary", id: "compile", onclick: () => { clearTimeout(sendTimer); if (!compiled) send("set_program", { program: draft }); send("compile", { on: !compiled }); } },
          compiled ? t("ram.uncompile") : t("ram.compile")),
        // What will this program do?  The engine runs it alone on the table as it is (the others' are secret).
        h("button", { type: "button", id: "preview-program", disabled: !draft.length, onclick: () => {
          preview = { key: JSON.stringify(draft), steps: null, k: 0 };
          send("preview_program", { program: draft });
        } }, t("ram.preview"))),
      previewBox(),
      h("p", { class: "small muted" }, t("ram.program.help")));
  }

  /** The preview of my program, step by step (while it is the program laid out). */
  function previewBox() {
    if (!preview?.steps || preview.key !== JSON.stringify(draft)) return null;
    const { steps, k } = preview;
    const step = steps[k];
    const go = (to) => { preview.k = Math.max(0, Math.min(steps.length - 1, to)); update(); onPreview(); };
    const words = step ? [insName(step.instruction), ...effectWords(step.effects, ctx.nameOf, (c) => state.players.find((p) => p.color === c)?.id)] : [];
    return h("div", { class: "ram-preview", id: "ram-preview", role: "region", "aria-label": t("ram.preview") },
      h("p", { class: "small" }, t("ram.preview.help")),
      steps.length ? h("p", { class: "ram-preview-step", id: "ram-preview-step", "aria-live": "polite" },
        h("b", {}, t("ram.preview.step", { k: k + 1, n: steps.length })), " ", words.join(" · "), step.won ? ` · ${t("ram.preview.won")}` : "")
        : h("p", {}, t("ram.preview.empty")),
      h("div", { class: "ram-row" },
        h("button", { type: "button", class: "small-btn", id: "preview-prev", disabled: k === 0, onclick: () => go(k - 1) }, t("replay.prev")),
        h("button", { type: "button", class: "small-btn", id: "preview-next", disabled: k >= steps.length - 1, onclick: () => go(k + 1) }, t("replay.next")),
        h("button", { type: "button", class: "small-btn", id: "preview-close", onclick: () => { preview = null; update(); onPreview(); } }, t("ram.preview.close"))));
  }

  function renderRuns() {
    if (state.phase !== "execution" && !frames.length) { fill(runs); return; }
    const colorOf = (c) => state.players.find((p) => p.color === c)?.id;
    const byPlayer = new Map((state.programs || []).map(([p, prog]) => [p, prog]));
    const ran = state.ran || [];
    const done = new Map();
    for (const ev of ran) done.set(ev.player, (done.get(ev.player) || 0) + 1);
    const loaded = state.loaded;
    fill(runs,
      state.phase === "execution" ? h("div", { class: "ram-programs" }, [...byPlayer].map(([p, prog]) => h("div", { class: "ram-prog-row", "data-player": p },
        h("span", { class: "pname" }, ctx.nameOf(p)),
        prog.map((ins, k) => h("span", { class: `ins${k < (done.get(p) || 0) ? " done" : ""}${loaded && loaded[0] === p && k === (done.get(p) || 0) ? " next" : ""}` }, pieceIcon(ins.color, ins.size, ins.orientation, 24)))))) : null,
      loaded ? h("p", { class: "small next-why" }, t("ram.next", { name: ctx.nameOf(loaded[0]), ins: insName(loaded[1]) }), " — ", t(`ram.why.${loaded[2]}`)) : null,
      ran.length ? h("p", { class: "ram-story", id: "ram-story", "aria-live": "polite" }, stepStory(ran.at(-1), ctx.nameOf, colorOf)) : null,
      frames.length ? h("button", { type: "button", class: "small-btn", id: "replay-round", onclick: replay }, t("ram.replay")) : null);
  }

  let replaying = false;
  async function replay() {
    if (replaying || !board) return;
    replaying = true;
    for (const [snap, ev] of frames) {
      board.render(snap);
      if (ev) board.beam(ev);
      await new Promise((r) => setTimeout(r, 800));
    }
    replaying = false;
    board.render(state);
  }

  function renderPeople() {
    fill(people, state.players.filter((p) => p.color).map((p) => h("li", { "data-player": p.id },
      h("span", { class: `swatch swatch-${p.color}`, title: colorName(p.color), style: `background:${RCOLORS[p.color]}` }, colorLetter(p.color)), " ",
      h("span", { class: "pname" }, ctx.nameOf(p.id)), " ",
      state.phase === "programming" ? h("span", { class: `cap${p.compiled ? " on" : ""}` }, p.compiled ? t("ram.compiled") : t("ram.programming")) : null,
      p.goals ? h("span", { class: "ram-goals", "aria-label": t("ram.goals.left", { n: p.goals.length }) }, h("span", { class: "muted small" }, t("ram.goals.short")), p.goals.map((g, k) => h("span", { class: k === 0 ? "goal-next" : "" }, pieceIcon(g.color, g.size, null, 18)))) : null,
      p.pool ? h("span", { class: "ram-pool-small" }, h("span", { class: "muted small" }, t("ram.pool.short")), p.pool.map((q) => pieceIcon(q.color, q.size, null, 14))) : h("span", { class: "muted small" }, t("ram.pool_size", { n: p.pool_size ?? 0 })))));
  }

  function update() {
    if (!state || !ctx) return;
    head.textContent = t("ram.panel");
    const me = state.players.find((p) => p.id === ctx.me);
    fill(precedence, h("span", { class: "small" }, t("ram.precedence")), (state.precedence || []).map((c, k) =>
      h("span", { class: `prec prec-${c}`, title: colorName(c), "aria-label": `${k + 1}. ${colorName(c)}`, style: `background:${RCOLORS[c]}` }, `${k + 1}·${colorLetter(c)}`)));
    info.textContent = state.phase === "goals" ? t("ram.phase.goals") : state.phase === "programming" ? t("ram.phase.programming", { n: state.round_number })
      : state.phase === "execution" ? t("ram.phase.execution", { n: state.round_number }) : "";
    if (me?.color && ctx.seated && state.phase === "goals") renderGoals(me, ctx.secrets);
    else if (me?.color && ctx.seated && state.phase === "programming") renderEditor(me, ctx.secrets);
    else { editorKey = null; fill(editor); }
    if (state.phase !== "programming") { draft = null; preview = null; }
    renderRuns();
    renderPeople();
  }

  let board = null;
  return {
    el: root,
    update(s, c) {
      state = s; ctx = c;
      if (s.round_number !== lastRound) { lastRound = s.round_number; if (s.phase === "execution") frames = []; }
      update();
    },
    /** The engine's answer to preview_program: its first step is shown. */
    message(msg) {
      if (msg.type !== "program_preview" || !preview || preview.steps) return;
      preview.steps = msg.steps;
      preview.k = 0;
      update();
      onPreview();
    },
    /** The state the board shows: the preview's step while one is open, else the table. */
    shown(s) {
      const step = preview?.steps?.[preview.k];
      return step && preview.key === JSON.stringify(draft) ? { ...s, objects: step.objects } : s;
    },
    set onPreview(fn) { onPreview = fn; },
    record(snapshot, ev, b) {
      board = b;
      if (ev.type === "programs_revealed") frames = [[snapshot, null]];
      else if (ev.type === "instruction_run") frames.push([snapshot, ev]);
    },
  };
}

/** A room of RAMbots: the board, the goal stacks and the program editor beside it. */
function room(ctx) {
  const board = new RamBoardView(ctx.board, { send: (type, fields) => ctx.send(type, fields), shortName: ctx.shortName });
  const panel = createPanel((type, fields) => ctx.send(type, fields));
  const snapshot = (s) => JSON.parse(JSON.stringify(s));
  let state = null;
  panel.onPreview = () => { if (state) board.render(panel.shown(state)); };
  return {
    panel: panel.el,
    update(s) {
      state = s;
      board.render(panel.shown(s));
      panel.update(s, { me: ctx.me(), seated: ctx.seated(), nameOf: ctx.nameOf, secrets: ctx.secrets(), online: ctx.online() });
    },
    status(s) {
      // The round, and my next goal (the top of my goal stack) once the stacks are shown.
      const mine = s.players?.find((p) => p.id === ctx.me());
      const next = mine?.goals?.[0];
      const round = s.round_number ? tg(NAME, "round.number", { n: s.round_number }) : s.phase === "lobby" ? t(`game.${NAME}`) : t("ram.setup");
      return [next ? pieceIcon(next.color, next.size, null, 36) : null,
        h("div", {}, h("div", { class: "round-n" }, round),
          h("div", { class: "target-name" }, next ? t("ram.goal.next", { piece: pieceName(next), n: mine.goals.length }) : tg(NAME, "room.target_all")))];
    },
    phase: (s) => t(`ram.phase.${s.phase}`, { n: s.round_number ?? "" }),
    result: () => null,
    history: () => null,
    /** The instructions run this round, first to last, each with what it did (apart from the log). */
    moves(s) {
      const colorOf = (c) => s.players?.find((p) => p.color === c)?.id;
      return (s.ran || []).map((ev, k) => h("li", { "data-move": k + 1 }, stepStory(ev, ctx.nameOf, colorOf)));
    },
    demo: () => null,
    clock(s) {
      if (s.phase === "programming" && s.programming_until) return { deadline: s.programming_until, key: "ram.clock.programming" };
      return null;
    },
    /** Programming is everyone's turn: mine until I compile. */
    myTurn: (s) => s.phase === "programming" && ctx.seated() && !s.players?.find((p) => p.id === ctx.me())?.compiled,
    hostControls: () => null,
    onEvent(ev, s) {
      if (ev.type === "instruction_run") {
        board.beam(ev);
        ctx.announce(stepStory(ev, ctx.nameOf, (c) => s.players?.find((p) => p.color === c)?.id));
        panel.record(snapshot(s), ev, board);
      } else if (ev.type === "programs_revealed") {
        cues.play("ding");
        panel.record(snapshot(s), ev, board);
      }
    },
    onMessage(msg) { panel.message(msg); },
    onLost: () => false,
    handleKey: () => false,
  };
}

/** The replay of a game of RAMbots: the board after each instruction. */
function replay(wrap) {
  const board = new RamBoardView(wrap);
  return {
    show(s) { board.render(s); },
    info: () => [],
  };
}

export default {
  name: NAME,
  strings: STRINGS,
  styles: ["style.css"],
  thumbnail,
  room,
  replay,
  howTo,
  roundStart: (ev) => ev.type === "programs_revealed",
  tokens: (p) => (p.goals ? Array.from({ length: p.score }, () => pieceIcon("green", 1, null, 14)) : []),
  describe(ev, nameOf, state, live) {
    const colorOf = (c) => state?.players?.find((p) => p.color === c)?.id;
    switch (ev.type) {
      case "game_started": return t("ev.game_started");
      case "goals_set": return t(ev.auto ? "ram.ev.goals_auto" : "ram.ev.goals_set", { name: nameOf(ev.player) });
      case "goals_revealed": return t("ram.ev.goals_revealed");
      case "program_set": return "";
      case "compiled": return t(ev.on ? "ram.ev.compiled" : "ram.ev.uncompiled", { name: nameOf(ev.player) });
      case "programs_revealed": return t("ram.ev.revealed", { n: ev.round });
      case "instruction_run": return live ? "" : stepStory(ev, nameOf, colorOf);  // the room lists them apart
      case "round_ended": return t("ram.ev.round_ended", { n: ev.round });
      default: return null;
    }
  },
  optionFields(d) {
    return [
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "speedbots" }), " ", t("ram.opt.speedbots")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "disclosure", checked: d.disclosure ?? true }), " ", t("ram.opt.disclosure")),
      h("details", { class: "rules" }, h("summary", {}, t("opt.more")),
        h("label", {}, t("ram.opt.programming_seconds"), " ", h("input", { type: "number", name: "programming_seconds", min: 0, max: 900, value: d.programming_seconds ?? 0 })),
        h("label", {}, t("ram.opt.step_seconds"), " ", h("input", { type: "number", name: "step_seconds", min: 0.2, max: 10, step: 0.1, value: d.step_seconds ?? 1.5 })),
        h("label", {}, t("ram.opt.layout"), " ", h("select", { name: "layout" }, ["default", "random"].map((v) => h("option", { value: v }, t(`ram.opt.layout.${v}`)))))),
    ];
  },
  readOptions(f) {
    return { speedbots: f.get("speedbots") === "on", disclosure: f.get("disclosure") === "on",
      programming_seconds: Number(f.get("programming_seconds")) || 0, step_seconds: Number(f.get("step_seconds")) || 1.5,
      layout: f.get("layout") || "default" };
  },
};
