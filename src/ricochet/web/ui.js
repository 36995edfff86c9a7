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

/** A short message in the aria-live toast area; kind "error" makes it red and assertive. */
export function toast(message, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", {}, message),
    h("button", { type: "button", class: "toast-close", "aria-label": t("close"), onclick: () => item.remove() }, "×"));
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
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
