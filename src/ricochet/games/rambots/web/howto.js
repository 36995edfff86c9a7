// RAMbots' lesson ("How to play"): a first program on the default set-up (seed 001's RAMbots by the
// corners, beacons in the centre), shown as the game previews one before compiling — "what will
// this program do?" — each step the engine's own run of it (howto.json, made by the game's
// preview_program and held to the engine by tests/test_howto.py).

import { t, colorName } from "../../i18n.js";
import { RamBoardView } from "./board.js";
import { insName, effectWords } from "./story.js";

export const howTo = {
  async open(wrap) {
    const res = await fetch(new URL("./howto.json", import.meta.url));
    if (!res.ok) throw new Error(`howto.json: ${res.status}`);
    const data = await res.json();
    const names = new Map(data.players.map((p) => [p.id, p.name]));
    const nameOf = (id) => names.get(id) ?? id;
    const colorOf = (c) => data.players.find((p) => p.color === c)?.id;
    const board = new RamBoardView(wrap, { shortName: nameOf });
    const me = data.players.find((p) => p.id === data.you);
    const show = (objects) => () => board.render({ objects, players: data.players });
    const steps = [
      { text: () => t("how.ram.goal"), show: show(data.objects) },
      { text: () => t("how.ram.program", { name: me.name, color: colorName(me.color), program: data.program.map(insName).join(", ") }), show: show(data.objects) },
      ...data.steps.map((step, k) => ({
        text: () => t("how.ram.step", { k: k + 1, ins: insName(step.instruction), what: effectWords(step.effects, nameOf, colorOf).join(" · ") }),
        show: show(step.objects),
      })),
      { text: () => t("how.ram.preview"), show: show(data.steps.at(-1)?.objects ?? data.objects) },
    ];
    return steps;
  },
};
