// Small DOM helpers.  Text always goes in through textContent (never innerHTML),
// so player names and chat can never inject markup.

import { t } from "./i18n.js";

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "…"}, "text", child…)
 * Attributes starting with "on" become listeners; booleans toggle presence;
 * string children become text nodes.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") el.style.cssText = value;  // CSSOM: allowed by the CSP (a style attribute is not)
    else if (value === true) el.setAttribute(key, "");
    else if (key === "value") el.value = value;
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace all children of el. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

/**
 * A short message for the person at the screen; kind "error" makes it red and assertive.  It goes
 * to the page's own notice area when it has one (``[data-notices]``: in the flow of the page,
 * beside the board, where it can cover neither the board nor a control), else to the toast area
 * at the foot of the page.  The area hears a "notice" event ({message, kind}) too: a room keeps
 * every notice in its log.  The newest comes first; two at most are shown.
 */
export function toast(message, kind = "info", ms = 5000) {
  const box = [...document.querySelectorAll("[data-notices]")].find((b) => b.isConnected) || document.getElementById("toasts");
  if (!box) return;
  const inline = box.hasAttribute("data-notices");
  const item = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", {}, message),
    h("button", { type: "button", class: "toast-close", "aria-label": t("close"), onclick: () => item.remove() }, "×"));
  // The same words again: the older one goes (a repeated refusal is one notice, not a pile).
  for (const old of box.children) if (old.firstElementChild?.textContent === message) old.remove();
  box.prepend(item);
  const keep = inline ? 2 : 4;
  while (box.children.length > keep) box.lastElementChild.remove();
  box.dispatchEvent(new CustomEvent("notice", { detail: { message, kind } }));
  setTimeout(() => item.remove(), ms);
}

/** A duration for people: "45 s" or "2:09". */
export function fmtSeconds(s) {
  s = Math.max(0, Math.ceil(s));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * Ask before something that cannot be undone: a modal dialog with the
 * question and two buttons; resolves true for "yes".  Esc or "no": false.
 */
export function confirmDialog(question, yes, no) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-label": question },
      h("p", {}, question),
      h("div", { class: "confirm-buttons" },
        h("button", { type: "button", class: "danger", id: "confirm-yes", onclick: () => { dialog.close(); resolve(true); } }, yes),
        h("button", { type: "button", id: "confirm-no", onclick: () => { dialog.close(); resolve(false); } }, no)));
    dialog.addEventListener("cancel", () => resolve(false));
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("#confirm-no").focus();  // the safe answer under the finger
  });
}

// Drawn, not emoji: a browser without an emoji font would show empty boxes.
const ICON_NS = "http://www.w3.org/2000/svg";
const ICONS = {
  sound: ["M3 9h4l5-4v14l-5-4H3z", "M15.5 8.5a5 5 0 0 1 0 7", "M18 6a8.5 8.5 0 0 1 0 12"],
  muted: ["M3 9h4l5-4v14l-5-4H3z", "M16 9l5 6", "M21 9l-5 6"],
  bell: ["M6 16v-5a6 6 0 0 1 12 0v5l1.5 2h-15z", "M10.5 20.5a1.6 1.6 0 0 0 3 0"],
  bell_off: ["M6 16v-5a6 6 0 0 1 12 0v5l1.5 2h-15z", "M10.5 20.5a1.6 1.6 0 0 0 3 0", "M3 3l18 18"],
  target: ["M12 10.5a1.5 1.5 0 1 0 0 3a1.5 1.5 0 1 0 0-3z", "M12 6a6 6 0 1 0 0 12a6 6 0 1 0 0-12z",
           "M12 2.5a9.5 9.5 0 1 0 0 19a9.5 9.5 0 1 0 0-19z"],
};
/** A small line icon (ICONS: sound, muted, bell, bell_off, target), hidden from screen readers. */
export function icon(name) {
  const svg = document.createElementNS(ICON_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon");
  ICONS[name].forEach((d, k) => {
    const path = document.createElementNS(ICON_NS, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", k === 0 && name !== "bell_off" ? "currentColor" : "none");  // off: an outline
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "2");
    path.setAttribute("stroke-linecap", "round");
    path.setAttribute("stroke-linejoin", "round");
    svg.append(path);
  });
  return svg;
}

/**
 * Load a stylesheet once (a game's, a shared module's): resolves when it is in (or failed:
 * the page still works, unstyled).
 */
export function loadStyle(href) {
  const url = new URL(href, location.href).href;
  const have = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === url);
  if (have) return have.dataset.loaded ? Promise.resolve() : new Promise((r) => { have.addEventListener("load", r); have.addEventListener("error", r); });
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = url;
  const done = new Promise((r) => {
    link.addEventListener("load", () => { link.dataset.loaded = "1"; r(); });
    link.addEventListener("error", r);
  });
  document.head.append(link);
  return done;
}
