// Cues that reach a player in another tab: short sounds (made with WebAudio,
// no files), the tab's title and icon, and — if the player asks for them —
// browser notifications.  Mute and notifications are remembered per browser.

import { t } from "./i18n.js";

const MUTE_KEY = "ricochet.mute";
const NOTIFY_KEY = "ricochet.notify";
let audio = null;

const TONES = {
  clock: [[660, 0.08], [880, 0.12]],           // the sand clock / timer turned
  tick: [[1000, 0.05]],                        // the last ten seconds
  turn: [[523, 0.1], [659, 0.1], [784, 0.18]], // your demonstration
  won: [[784, 0.1], [988, 0.1], [1319, 0.25]],
  lost: [[392, 0.15], [330, 0.25]],
  ding: [[880, 0.1]],                          // something new to look at
};

export const cues = {
  get muted() { return localStorage.getItem(MUTE_KEY) === "1"; },
  set muted(v) { localStorage.setItem(MUTE_KEY, v ? "1" : "0"); },
  get notifying() { return localStorage.getItem(NOTIFY_KEY) === "1" && globalThis.Notification?.permission === "granted"; },

  /** Play a cue (quietly ignored when muted, or before the page had a user gesture). */
  play(kind) {
    if (this.muted || !TONES[kind]) return;
    try {
      audio ??= new (globalThis.AudioContext || globalThis.webkitAudioContext)();
      let at = audio.currentTime + 0.01;
      for (const [freq, dur] of TONES[kind]) {
        const osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = freq;
        osc.type = "sine";
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.15, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + dur + 0.02);
        at += dur;
      }
    } catch { /* no audio here: the other cues still work */ }
  },

  /** A browser notification while the page is hidden (if the player turned them on). */
  notify(text) {
    if (!this.notifying || !document.hidden) return;
    try { new Notification(t("app.title"), { body: text, tag: "ricochet" }); } catch { /* not allowed */ }
  },

  async enableNotifications(on) {
    if (!on) { localStorage.setItem(NOTIFY_KEY, "0"); return false; }
    if (!globalThis.Notification) return false;
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "1" : "0");
    return answer === "granted";
  },

  /** The tab's title and icon: the state of the room at a glance (``mood``: turn, clock or idle). */
  tab(title, mood = "idle") {
    if (document.title !== title) document.title = title;
    const color = { turn: "#2c7a2c", clock: "#e08a00", idle: "#5d5548" }[mood];
    const href = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${color}"/>${mood === "turn" ? '<path d="M6 4l6 4-6 4z" fill="#fff"/>' : ""}</svg>`)}`;
    let link = document.querySelector("link[rel=icon]");
    if (!link) { link = document.createElement("link"); link.rel = "icon"; document.head.append(link); }
    if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  },
};
