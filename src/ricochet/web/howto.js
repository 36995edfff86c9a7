// "How to play": a game's lesson — its rules text's own example, step by step, on its own board —
// in a dialog over the page (the lobby's or a room's: nothing is left behind).  The game's module
// gives the lesson (GameModule.howTo, games/index.js); this only frames it: the board, the words of
// the step, Previous / Next, Close (Esc).  The arrow keys turn the pages.

import { t, tg, onLangChange } from "./i18n.js";
import { h, fill } from "./ui.js";

/** Open the lesson of ``game`` (a GameModule); resolves when it is closed. */
export async function openHowTo(game) {
  if (!game?.howTo) return;
  const board = h("div", { class: "board-wrap howto-board", id: "howto-board" });
  const text = h("p", { class: "howto-text", id: "howto-text", "aria-live": "polite" });
  const count = h("p", { class: "howto-count muted small", id: "howto-count" });
  const title = h("h2", { id: "howto-h" });
  const prev = h("button", { type: "button", id: "howto-prev" });
  const next = h("button", { type: "button", class: "primary", id: "howto-next" });
  const close = h("button", { type: "button", id: "howto-close" });
  const dialog = h("dialog", { class: "howto", "aria-labelledby": "howto-h" },
    h("div", { class: "howto-head" }, title, close), board,
    h("div", { class: "howto-foot" }, count, text, h("div", { class: "howto-buttons" }, prev, next)));
  document.body.append(dialog);
  dialog.showModal();
  let steps = [];
  let k = 0;

  function label() {
    title.textContent = `${t("lobby.how")} — ${t(`game.${game.name}`)}`;
    close.textContent = t("close");
    prev.textContent = t("replay.prev");
    next.textContent = k < steps.length - 1 ? t("replay.next") : t("howto.done");
    count.textContent = steps.length ? t("howto.step", { k: k + 1, n: steps.length }) : t("tr.loading");
    text.textContent = steps[k]?.text() ?? "";
    prev.disabled = k === 0;
  }
  function go(to, animate = false) {
    k = Math.max(0, Math.min(steps.length - 1, to));
    steps[k]?.show(animate);
    label();
  }
  prev.addEventListener("click", () => go(k - 1));
  next.addEventListener("click", () => (k < steps.length - 1 ? go(k + 1, true) : dialog.close()));
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("keydown", (e) => {
    if (e.target.closest?.("button") && (e.key === "Enter" || e.key === " ")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); if (k < steps.length - 1) go(k + 1, true); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); go(k - 1); }
  });
  const relabel = () => { if (dialog.open) go(k); };
  onLangChange(relabel);
  label();
  const closed = new Promise((resolve) => dialog.addEventListener("close", () => { dialog.remove(); resolve(); }));
  try {
    steps = await game.howTo.open(board);
  } catch (e) {
    fill(board);
    text.textContent = tg(game.name, "lobby.how.text");  // the rules in a paragraph at least
    console.warn("the lesson did not load", e);
  }
  if (dialog.open) { go(0); next.focus(); }
  return closed;
}
