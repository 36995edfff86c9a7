// The lobby: nickname, the game to play, one-click game against bots, new-room
// form (with the chosen game's options), public rooms of every game.

import { t, tg, onLangChange, playerName, STRINGS } from "./i18n.js";

/** A room's phase in words (the game's own word for it, else the shell's; nothing rather than a key). */
const phaseName = (game, phase) => (`${game}:phase.${phase}` in STRINGS.en || `phase.${phase}` in STRINGS.en ? tg(game, `phase.${phase}`) : "");
import { api } from "./net.js";
import { h, fill, icon, toast } from "./ui.js";
import { GAMES, INFO, DEFAULT_GAME, gameOf } from "./games/index.js";
import { openHowTo } from "./howto.js";

const NAME_KEY = "ricochet.name";
export const nickname = {
  get: () => localStorage.getItem(NAME_KEY) || "",
  set: (v) => localStorage.setItem(NAME_KEY, v.trim()),
};

const GAME_KEY = "ricochet.game";

/**
 * Go to a room.  setup: what the creator does once seated as host — seat bots
 * ({bots: [level…]}) and start.  Bots are added after the creator has joined
 * (not as RoomOptions.bots) so the creator, not a bot, is the host.
 */
export function openRoom(roomId, setup = null) {
  if (setup) sessionStorage.setItem(`ricochet.setup.${roomId}`, JSON.stringify(setup));
  location.assign(`/r/${encodeURIComponent(roomId)}`);
}

export function mountLobby(root) {
  // Until the server's options come: the games' own bot levels (as the list of games says them).
  const fallbackLevels = () => INFO[chosen]?.bot_levels || [];
  let options = { defaults: {}, bot_levels: null, games: {} };
  let chosen = GAMES[localStorage.getItem(GAME_KEY)] ? localStorage.getItem(GAME_KEY) : DEFAULT_GAME;
  const gameChoice = h("fieldset", { class: "game-choice", id: "game-choice" });
  const nameInput = h("input", { id: "nickname", name: "nickname", maxlength: 32, autocomplete: "nickname", value: nickname.get(), required: true });
  nameInput.addEventListener("change", () => nickname.set(nameInput.value));

  const needName = () => {
    const v = nameInput.value.trim();
    if (!v) { toast(t("lobby.need_name"), "error"); nameInput.focus(); return null; }
    nickname.set(v);
    return v;
  };
  const levelSelect = (id, value = "intermediate") => {
    const sel = h("select", { id, name: id });
    const levels = options.bot_levels || fallbackLevels();
    for (const lv of levels) sel.append(h("option", { value: lv }, t(`room.bot_level.${lv}`)));
    sel.value = levels.includes(value) ? value : levels[0];  // one the server offers
    return sel;
  };

  // -- quick game against bots ---------------------------------------------------------
  const quickLevelBox = h("span");
  const quickBtn = h("button", { type: "button", class: "primary big", id: "quick-play" }, t("lobby.quick"));
  quickBtn.addEventListener("click", async () => {
    const name = needName();
    if (!name) return;
    quickBtn.disabled = true;
    try {
      const level = document.getElementById("quick-level")?.value || "intermediate";
      const res = await api("/api/rooms", { method: "POST", body: { game: chosen, private: true, name: t("lobby.quick.room", { name }).slice(0, 40) } });
      openRoom(res.room_id, { bots: [level, level], start: true });
    } catch (e) {
      toast(e.message, "error");
      quickBtn.disabled = false;
    }
  });

  // -- new room form ---------------------------------------------------------------------
  const form = h("form", { class: "create-form", id: "create-form" });
  const roomsBox = h("div", { class: "rooms", "aria-live": "polite" });

  function buildGameChoice() {
    fill(gameChoice, h("legend", {}, t("lobby.game")), Object.values(GAMES).map((g) => h("label", { class: `game-card${g.name === chosen ? " chosen" : ""}`, "data-game": g.name },
      h("input", { type: "radio", name: "game", value: g.name, checked: g.name === chosen, onchange: () => { chosen = g.name; localStorage.setItem(GAME_KEY, chosen); render(); } }),
      g.thumbnail(44), h("span", {}, h("b", {}, t(`game.${g.name}`)), h("span", { class: "muted small" }, t(`lobby.game.${g.name}`))))));
  }

  // The fields the user changed.  The form is built again when the server's options arrive and
  // when the language changes: what was typed, ticked or opened stays.  Another game keeps only the
  // fields every game has (its own fields, a clock say, take that game's defaults).
  const SHARED_FIELDS = ["name", "bots", "create-level", "private", "spectator_chat"];
  const edited = new Set();
  let formGame = null;
  for (const type of ["input", "change"]) form.addEventListener(type, (e) => { if (e.target.name) edited.add(e.target.name); });

  function buildForm() {
    const same = formGame === chosen;
    if (!same) for (const name of edited) if (!SHARED_FIELDS.includes(name)) edited.delete(name);
    formGame = chosen;
    const kept = new Map([...form.elements].filter((el) => edited.has(el.name) && (el.type !== "radio" || el.checked))
      .map((el) => [el.name, el.type === "checkbox" ? el.checked : el.value]));
    const open = [...form.querySelectorAll("details")].map((el) => same && el.open);
    const d = options.games?.[chosen]?.defaults || (chosen === DEFAULT_GAME ? options.defaults : {}) || {};
    fill(form,
      h("label", {}, t("opt.name"), " ", h("input", { name: "name", maxlength: 40, placeholder: t("opt.name.placeholder") })),
      gameOf(chosen).optionFields(d),
      h("label", {}, t("opt.bots"), " ", h("input", { type: "number", name: "bots", min: 0, max: 6, value: 0 })),
      h("label", {}, t("opt.bot_level"), " ", levelSelect("create-level")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "private" }), " ", t("opt.private")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "spectator_chat" }), " ", t("opt.spectator_chat")),
      h("button", { type: "submit", class: "primary" }, t("room.create")));
    for (const el of form.elements) {
      if (!kept.has(el.name)) continue;
      const v = kept.get(el.name);
      if (el.type === "checkbox") el.checked = v;
      else if (el.type === "radio") {
        el.checked = el.value === v;
        if (el.checked) el.dispatchEvent(new Event("change", { bubbles: true }));  // what it shows or hides
      } else if (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === v)) el.value = v;  // (a level the server dropped: its default)
    }
    form.querySelectorAll("details").forEach((el, i) => { el.open = !!open[i]; });
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = needName();
    if (!name) return;
    const f = new FormData(form);
    const body = { game: chosen, private: f.get("private") === "on", spectator_chat: f.get("spectator_chat") === "on", ...gameOf(chosen).readOptions(f) };
    body.name = f.get("name") || t("room.default_name", { name }).slice(0, 40);  // in the creator's language
    const n = Number(f.get("bots")) || 0;
    try {
      const res = await api("/api/rooms", { method: "POST", body });
      openRoom(res.room_id, n ? { bots: Array.from({ length: n }, () => f.get("create-level")), start: false } : null);
    } catch (err) {
      toast(err.message, "error", 8000);
    }
  });

  async function loadRooms() {
    try {
      const { rooms } = await api("/api/rooms");
      if (!rooms.length) { fill(roomsBox, h("p", { class: "muted" }, t("lobby.rooms.empty"))); return; }
      fill(roomsBox, h("ul", { class: "room-list" }, rooms.map((r) => {
        const people = r.players.filter((p) => !p.bot).length, bots = r.players.length - people;
        const g = gameOf(r.game);
        return h("li", { class: "room-item", "data-game": g.name },
          g.thumbnail(32),
          h("span", { class: "room-name", translate: "no" }, r.name),  // (a person's words: never translated)
          h("span", { class: "muted" }, ` ${t(`game.${g.name}`)} · ${phaseName(g.name, r.phase)} · ${t("lobby.room.players", { n: r.players.length })}${bots ? ` (${t("lobby.room.bots", { n: bots })})` : ""}`),
          r.players.length ? h("span", { class: "muted small room-who" }, t("lobby.room.who", { names: r.players.map((p) => playerName(p.name, p.bot ? INFO[g.name]?.bot_levels : [])).join(", ") })) : null,
          h("span", { class: "room-actions" },
            h("button", { type: "button", onclick: () => { if (needName()) openRoom(r.room_id); } }, t("lobby.join")),
            h("a", { class: "button", href: `/r/${encodeURIComponent(r.room_id)}?watch=1` }, t("lobby.watch"))));
      })));
    } catch (e) {
      fill(roomsBox, h("p", { class: "error" }, t("error.network", { msg: e.message })));
    }
  }

  function render() {
    fill(quickLevelBox, h("label", {}, t("opt.bot_level"), " ", levelSelect("quick-level", document.getElementById("quick-level")?.value)));
    quickBtn.textContent = t("lobby.quick");
    buildGameChoice();
    buildForm();
    fill(root, h("section", { class: "lobby" },
      h("div", { class: "panel hero" },
        h("h1", {}, t("app.title")),
        h("p", { class: "tagline" }, t("app.tagline")),
        h("label", { for: "nickname", class: "nick-label" }, t("lobby.nickname")), nameInput,
        gameChoice,
        h("div", { class: "quick" }, quickBtn, quickLevelBox),
        h("p", { class: "train-link" }, h("a", { class: "button", href: "/train", id: "train-link" }, icon("target"), " ", t("tr.lobby")), " ", h("span", { class: "muted small" }, t("tr.lobby.hint"))),
        h("p", { class: "muted small" }, t("lobby.quick.hint")),
        h("div", { class: "how" },
          gameOf(chosen).howTo ? h("button", { type: "button", id: "how-to", onclick: () => openHowTo(gameOf(chosen)) }, t("howto.open"), " — ", t(`game.${chosen}`)) : null,
          h("details", {}, h("summary", {}, t("lobby.how.rules")), h("p", {}, tg(chosen, "lobby.how.text"))))),
      h("div", { class: "panel" }, h("h2", {}, t("lobby.rooms"),
        h("button", { type: "button", class: "small-btn", onclick: loadRooms }, t("lobby.refresh"))), roomsBox),
      h("div", { class: "panel" }, h("h2", {}, t("lobby.create"), h("span", { class: "muted small" }, t(`game.${chosen}`))), form)));
    nameInput.placeholder = t("lobby.nickname.placeholder");
    loadRooms();
  }

  render();
  onLangChange(render);
  form.setAttribute("aria-busy", "true");  // until the server's defaults and bot levels are in
  api("/api/options").then((o) => { options = { ...options, ...o }; if (!o.bot_levels?.length) options.bot_levels = null; render(); })
    .catch(() => {}).finally(() => form.setAttribute("aria-busy", "false"));
  const timer = setInterval(loadRooms, 10000);
  return () => clearInterval(timer);
}
