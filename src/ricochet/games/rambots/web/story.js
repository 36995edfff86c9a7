// RAMbots' stories: a piece, an instruction and what it did, in words (the room's moves and log, the
// program preview, the lesson).

import { t, colorName } from "../../i18n.js";

/** "small red", "petite rouge", "grande bleue" (a piece, "une pièce": its colour agrees with it). */
export const pieceName = (p) => t("ram.piece", { size: t(`ram.size.${p.size}`), color: t(`ram.color.${p.color}`) });

/** "small red pointing right". */
export const insName = (i) => `${pieceName(i)} ${t(`ram.orient.${i.orientation}`)}`;

/** One instruction run: whose, which, why now, what it did. */
export function stepStory(ev, nameOf, colorOf) {
  const who = nameOf(ev.player);
  return [t("ram.step.run", { name: who, ins: insName(ev.instruction) }), t(`ram.why.${ev.why}`), ...effectWords(ev.effects, nameOf, colorOf)].join(" · ");
}

/** What an instruction did, in words (its effects as the engine tells them). */
export function effectWords(effects, nameOf, colorOf) {
  const parts = [];
  let moved = 0;
  for (const e of effects) {
    if (e.kind === "ram") parts.push(t("ram.fx.ram", { what: objName(e.object, nameOf, colorOf) }));
    else if (e.kind === "steal" && e.piece) parts.push(t("ram.fx.steal", { piece: pieceName(e.piece), name: nameOf(colorOf(e.from)) }));
    else if (e.kind === "tag") parts.push(t("ram.fx.tag", { n: 4 - e.left }));
    else if (e.kind === "knock_over") parts.push(t("ram.fx.knock", { what: objName(e.object, nameOf, colorOf) }));
    else if (e.kind === "blocked") parts.push(t("ram.fx.blocked"));
    else if (e.kind === "beam" && e.hit) parts.push(t(`ram.fx.beam.${e.color}`, { what: objName(e.hit, nameOf, colorOf) }));
    else if (e.kind === "move") moved += 1;
    else if (e.kind === "tip_down") parts.push(t("ram.fx.tip_down", { dir: t(`dir.${e.facing}`) }));
    else if (e.kind === "turn") parts.push(t("ram.fx.turn", { dir: t(`dir.${e.facing}`) }));
    else if (e.kind === "nothing") parts.push(t("ram.fx.nothing"));
    else if (e.kind === "push") parts.push(t("ram.fx.push", { what: e.objects.map((o) => objName(o, nameOf, colorOf)).join(", ") }));
    else if (e.kind === "beam" && !e.hit) parts.push(t("ram.fx.beam.none", { color: colorName(e.color) }));
    else if (e.kind === "wall") parts.push(t("ram.fx.wall"));
  }
  if (moved) parts.unshift(t("ram.fx.move", { n: moved }));  // the spaces it went, said once
  return parts;
}

function objName(key, nameOf, colorOf) {
  const [kind, color] = key.split(":");
  if (kind === "bot") return t("ram.bot.of", { name: nameOf(colorOf(color)) });
  return t("ram.beacon", { color: t(`ram.color.${color}`) });  // une balise: the colour agrees
}
