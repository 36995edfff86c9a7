// The lobby: nickname, one-click game against bots, new-room form, public rooms.

import { t, onLangChange } from "./i18n.js";
import { api } from "./net.js";
import { h, fill, toast } from "./ui.js";

const NAME_KEY = "ricochet.name";
export const nickname = {
  get: () => localStorage.getItem(NAME_KEY) || "",
  set: (v) => localStorage.setItem(NAME_KEY, v.trim()),
};

const FALLBACK_LEVELS = ["beginner", "intermediate", "expert", "perfect"];
const TILES = ["1", "2", "3", "4"].flatMap((p) => ["A", "B", "C", "D"].map((f) => p + f));
const RULES = ["diagonals", "openings", "silver", "transparent", "must_ricochet", "no_straight_back", "tournament"];

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
  let options = { defaults: {}, bot_levels: FALLBACK_LEVELS };
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
    for (const lv of options.bot_levels) sel.append(h("option", { value: lv }, t(`room.bot_level.${lv}`)));
    sel.value = value;
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
      const res = await api("/api/rooms", { method: "POST", body: { private: true, name: `${name} vs bots`.slice(0, 40) } });
      openRoom(res.room_id, { bots: [level, level], start: true });
    } catch (e) {
      toast(e.message, "error");
      quickBtn.disabled = false;
    }
  });

  // -- new room form ---------------------------------------------------------------------
  const form = h("form", { class: "create-form", id: "create-form" });
  const roomsBox = h("div", { class: "rooms", "aria-live": "polite" });

  function buildForm() {
    const d = options.defaults || {};
    const check = (key, label) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: key, checked: d[key] ?? ["diagonals", "openings", "silver", "must_ricochet", "no_straight_back"].includes(key) }), " ", t(label));
    const tileSelects = ["NW", "NE", "SE", "SW"].map((pos, i) => {
      const sel = h("select", { name: `tile${i}`, id: `tile${i}` });
      for (const n of TILES.filter((x) => x[0] === String(i + 1)).concat(TILES.filter((x) => x[0] !== String(i + 1)))) sel.append(h("option", { value: n }, n));
      return h("label", {}, t(`opt.tile.${pos}`), " ", sel);
    });
    const chosen = h("div", { class: "tiles", hidden: true }, tileSelects);
    const faces = h("select", { name: "faces", id: "faces" },
      ["AB", "CD", "any"].map((f) => h("option", { value: f }, t(`opt.faces.${f}`))));
    faces.value = d.faces || "AB";
    const facesLabel = h("label", {}, t("opt.faces"), " ", faces);
    const mode = h("fieldset", { class: "board-mode" }, h("legend", {}, t("opt.board")),
      ["random", "chosen"].map((m) => h("label", { class: "check" },
        h("input", { type: "radio", name: "board_mode", value: m, checked: m === "random", onchange: () => { chosen.hidden = m !== "chosen"; facesLabel.hidden = m === "chosen"; } }),
        " ", t(`opt.board.${m}`))),
      facesLabel, chosen);
    fill(form,
      h("label", {}, t("opt.name"), " ", h("input", { name: "name", maxlength: 40, placeholder: "Friday night" })),
      mode,
      h("details", { class: "rules" }, h("summary", {}, t("opt.more")),
        h("div", { class: "checks" }, RULES.map((k) => check(k, `opt.${k}`))),
        h("label", {}, t("opt.clock"), " ", h("input", { type: "number", name: "clock_seconds", min: 5, max: 600, value: d.clock_seconds ?? 60 })),
        h("label", {}, t("opt.target_score"), " ", h("input", { type: "number", name: "target_score", min: 1, max: 17, value: d.target_score ?? "" }))),
      h("label", {}, t("opt.bots"), " ", h("input", { type: "number", name: "bots", min: 0, max: 6, value: 0 })),
      h("label", {}, t("opt.bot_level"), " ", levelSelect("create-level")),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "private" }), " ", t("opt.private")),
      h("button", { type: "submit", class: "primary" }, t("room.create")));
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = needName();
    if (!name) return;
    const f = new FormData(form);
    const body = { private: f.get("private") === "on" };
    if (f.get("name")) body.name = f.get("name");
    for (const k of RULES) body[k] = f.get(k) === "on";
    if (f.get("board_mode") === "chosen") body.tiles = [0, 1, 2, 3].map((i) => f.get(`tile${i}`)).join(",");
    else body.faces = f.get("faces");
    body.clock_seconds = Number(f.get("clock_seconds")) || 60;
    body.target_score = f.get("target_score") ? Number(f.get("target_score")) : null;
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
        return h("li", { class: "room-item" },
          h("span", { class: "room-name" }, r.name),
          h("span", { class: "muted" }, ` ${t(`phase.${r.phase}`) || r.phase} · ${t("lobby.room.players", { n: r.players.length })}${bots ? ` (${bots} ${t("room.bot")})` : ""}`),
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
    buildForm();
    fill(root, h("section", { class: "lobby" },
      h("div", { class: "panel hero" },
        h("h1", {}, t("app.title")),
        h("p", { class: "tagline" }, t("app.tagline")),
        h("label", { for: "nickname", class: "nick-label" }, t("lobby.nickname")), nameInput,
        h("div", { class: "quick" }, quickBtn, quickLevelBox),
        h("p", { class: "muted small" }, t("lobby.quick.hint")),
        h("details", { class: "how" }, h("summary", {}, t("lobby.how")), h("p", {}, t("lobby.how.text")))),
      h("div", { class: "panel" }, h("h2", {}, t("lobby.rooms"),
        h("button", { type: "button", class: "small-btn", onclick: loadRooms }, t("lobby.refresh"))), roomsBox),
      h("div", { class: "panel" }, h("h2", {}, t("lobby.create")), form)));
    nameInput.placeholder = t("lobby.nickname.placeholder");
    loadRooms();
  }

  render();
  onLangChange(render);
  api("/api/options").then((o) => { options = { ...options, ...o }; if (!o.bot_levels?.length) options.bot_levels = FALLBACK_LEVELS; render(); }).catch(() => {});
  const timer = setInterval(loadRooms, 10000);
  return () => clearInterval(timer);
}
