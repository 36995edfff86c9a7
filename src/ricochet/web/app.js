// Entry point: language switch and routing.  "/" is the lobby, "/r/{id}" a
// room ("?watch=1" as a spectator, "?replay=1[&game=N]" the replay of its game).

import { apply, getLang, setLang, onLangChange, t } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountRoom } from "./room.js";
import { mountReplay } from "./replay.js";
import { mountTrainer } from "./trainer.js";
import { cues } from "./cues.js";
import { icon } from "./ui.js";

const root = document.getElementById("app");
const langSelect = document.getElementById("lang");
document.documentElement.lang = getLang();
langSelect.value = getLang();
langSelect.addEventListener("change", () => setLang(langSelect.value));
onLangChange(() => { apply(); toggles(); });
apply();

// Sound and notification switches in the top bar, remembered per browser.
const bar = document.querySelector(".topbar");
const soundBtn = document.createElement("button");
soundBtn.type = "button";
soundBtn.id = "sound";
soundBtn.className = "icon-btn";
soundBtn.addEventListener("click", () => { cues.muted = !cues.muted; toggles(); if (!cues.muted) cues.play("ding"); });
const notifyBtn = document.createElement("button");
notifyBtn.type = "button";
notifyBtn.id = "notify";
notifyBtn.className = "icon-btn";
notifyBtn.addEventListener("click", async () => { await cues.enableNotifications(!cues.notifying); toggles(); });
bar.insertBefore(notifyBtn, document.getElementById("conn"));
bar.insertBefore(soundBtn, notifyBtn);

function toggles() {
  soundBtn.replaceChildren(icon(cues.muted ? "muted" : "sound"));
  soundBtn.setAttribute("aria-pressed", cues.muted ? "false" : "true");
  soundBtn.setAttribute("aria-label", t(cues.muted ? "cue.sound_off" : "cue.sound_on"));
  soundBtn.title = soundBtn.getAttribute("aria-label");
  notifyBtn.replaceChildren(icon(cues.notifying ? "bell" : "bell_off"));
  notifyBtn.setAttribute("aria-pressed", cues.notifying ? "true" : "false");
  notifyBtn.setAttribute("aria-label", t(cues.notifying ? "cue.notify_on" : "cue.notify_off"));
  notifyBtn.title = notifyBtn.getAttribute("aria-label");
  notifyBtn.hidden = !globalThis.Notification;
}
toggles();

const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]{1,64})\/?$/);
const params = new URLSearchParams(location.search);
// "/train" is solo training; "/train/<game>/<code>" a shared puzzle.
const train = location.pathname.match(/^\/train(?:\/([a-z-]+)\/([^/]+))?\/?$/);
if (train) {
  mountTrainer(root, { game: train[1] || params.get("game"), mode: params.get("mode"), code: train[2] ? decodeURIComponent(train[2]) : null });
} else if (match) {
  const roomId = match[1];
  if (params.has("replay")) mountReplay(root, roomId, { game: params.get("game") });
  else mountRoom(root, roomId, { watch: params.has("watch") });
} else {
  mountLobby(root);
}

// Offline use: the service worker keeps the pages and their files (sw.js says what and how).
// <html data-offline-ready> once it controls this page (what a test can wait for).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* no offline use: the site works as before */ });
  const ready = () => { if (navigator.serviceWorker.controller) document.documentElement.dataset.offlineReady = "1"; };
  navigator.serviceWorker.addEventListener("controllerchange", ready);
  ready();
}
