// Small SVG helpers every board draws with: elements (attributes set, text only through
// textContent), titles for screen readers, coordinates rounded for compact markup.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes (null/undefined left out) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

/** A <title> (what a screen reader or a tooltip says of its parent). */
export function title(text) {
  const node = el("title");
  node.textContent = text;  // textContent: never markup
  return node;
}

/** A coordinate rounded to two decimals. */
export const r2 = (v) => Math.round(v * 100) / 100;
