// The trainer's modes that are views of their own (not one puzzle with hints): Puzzle Storm,
// the daily archive and the leaderboards.  trainer.js shows one in place of its board
// column; each is mount(root, ctx) → {render, destroy, handleKey?}.  Their strings and
// styles come with them.

import { addStrings } from "./i18n.js";
import { loadStyle } from "./ui.js";
import strings from "./trainer-strings.js";
import { mountStorm } from "./trainer-storm.js";
import { mountArchive } from "./trainer-archive.js";
import { mountLeaders } from "./trainer-leaders.js";

addStrings(strings);
loadStyle(new URL("./trainer-modes.css", import.meta.url).href);

/** The views, by mode name, in the order of the trainer's tabs. */
export const VIEWS = { storm: mountStorm, archive: mountArchive, leaders: mountLeaders };
