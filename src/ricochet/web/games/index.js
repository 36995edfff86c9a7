// The games of the site, and the contract between the web shell and a game's module.
//
// The shell (lobby.js, room.js, replay.js, trainer.js) knows no game: it asks the server
// which games there are (GET /static/games/index.json: each game's name and bot levels, in
// the lobby's order; kept for offline use like every static file), imports each game's module from
// /static/games/<name>/game.js (the server serves each game's own web folder there), adds
// its strings and styles, and from then on speaks to it only through the GameModule below.
// It never tests a game's name nor switches on a game's events.

import { api } from "../net.js";
import { addStrings } from "../i18n.js";
import { loadStyle } from "../ui.js";

/**
 * A game's module: the default export of /static/games/<name>/game.js.
 *
 * @typedef {object} GameModule
 * @property {string} name  the game's name, as the server says it in every state ("game")
 * @property {{en: Object<string, string>, fr: Object<string, string>}} strings  its strings: at least
 *   "game.<name>" (its title), "lobby.game.<name>" (one line for the lobby) and
 *   "<name>:lobby.how.text" (its rules in a paragraph); "<name>:<key>" is its wording of a shell key
 * @property {string[]} [styles]  its stylesheets, relative to the module (loaded with it)
 *
 * The lobby:
 * @property {(size: number) => Element} thumbnail  a small picture of the game
 * @property {(defaults: object) => Node[]} optionFields  its fields of the new room form (the server's defaults)
 * @property {(form: FormData) => object} readOptions  its room options from that form
 *
 * A room and its replay:
 * @property {(ctx: RoomContext) => RoomView} room  its part of a room (made once per room)
 * @property {(wrap: Element) => ReplayView} replay  its part of a replay
 * @property {(ev: object, nameOf: (id: string) => string, state: object, live: boolean) => (string|null)} describe
 *   a line for one of its events, in the room's log (live) or the replay's list ("": nothing to
 *   say; null: not one of its events: the shell says the table's)
 * @property {(ev: object) => boolean} roundStart  does this event start a round (the replay's jumps)
 * @property {(player: object, state: object) => Node[]} tokens  what a player won, as small pictures
 *
 * Solo training (only a game with puzzles: GET /api/trainer/me lists them):
 * @property {TrainerModule} [trainer]
 *
 * Learning it ("How to play", howto.js):
 * @property {HowTo} [howTo]  its lesson: its rules text's own example, step by step, on its board
 */

/**
 * A game's lesson.
 *
 * @typedef {object} HowTo
 * @property {(wrap: Element) => Promise<HowToStep[]>} open  draw its board in `wrap`; the steps
 *
 * @typedef {object} HowToStep
 * @property {() => string} text  the words of the step, in the page's language
 * @property {(animate: boolean) => void} show  draw the board as the step shows it (animate: one step on)
 */

/**
 * What the shell gives a game's room view.
 *
 * @typedef {object} RoomContext
 * @property {Element} board  where the board goes
 * @property {(type: string, fields?: object) => (number|null)} send  send an action (null: not sent; the shell said why)
 * @property {() => (string|null)} me  my player id (null: a spectator)
 * @property {() => boolean} seated  am I seated now
 * @property {() => boolean} isHost  am I the host
 * @property {() => boolean} online  is the connection up
 * @property {() => (object|null)} secrets  my own secrets ("private" in messages)
 * @property {() => {seats: object[], spectators: number}} presence  who is here
 * @property {(id: string) => string} nameOf  a player's name, as shown (a bot's level in the page's language)
 * @property {(id: string) => string} shortName  a player's name in few letters (a bot's without its level: on a board)
 * @property {(text: string) => void} announce  say it to screen readers
 * @property {() => void} redraw  draw the room again (the shell calls update and the rest)
 *
 * A game's part of a room.  The shell draws the page around it (title, players, host
 * controls, chat, the game's log) and calls these after every message and every 250 ms.
 *
 * @typedef {object} RoomView
 * @property {Element} panel  its panel beside the board (bids, the announce button, a program editor)
 * @property {(state: object) => void} update  draw the board and the panel from the state
 * @property {(state: object) => Node[]} status  the left of the status line: the round and its goal
 * @property {(state: object) => string} phase  the phase line
 * @property {(state: object) => (Node[]|null)} result  between rounds: how the last round ended (null: nothing)
 * @property {(state: object) => (Node[]|null)} history  the finished rounds, newest first (null: none yet)
 * @property {(state: object) => (Node[]|null)} [moves]  the moves of the round so far, first to last, as list
 *   items (null: none): shown apart from the log, which then leaves them out
 * @property {(state: object) => (Node[]|null)} demo  the controls of my turn under the board (null: none now)
 * @property {(state: object, now: number) => (Clock|null)} clock  the clock to show (now: the server's time)
 * @property {(state: object) => boolean} myTurn  is it my turn (the tab's title says so)
 * @property {(state: object) => (Node|null)} hostControls  the host's own controls of the game
 * @property {(ev: object, state: object) => void} onEvent  an event happened (the state has it): animations, sounds, notices
 * @property {(msg: object) => void} onMessage  a message of the game from the server (an answer to a query)
 * @property {(action: {type: string, fields: object}) => boolean} onLost  an action sent as the connection
 *   dropped: say what became of it (false: the shell says it does not know)
 * @property {(e: KeyboardEvent) => boolean} handleKey  a key pressed on the page (true: used)
 *
 * @typedef {object} Clock
 * @property {number} [deadline]  when it runs out (server time); without it, `text` alone is shown
 * @property {string} [key]  the string of the time left ({s}); default "clock.left"
 * @property {string} [text]  a text to show instead
 * @property {number} [span]  its whole length in seconds (the bar)
 * @property {boolean} [bar]  show the bar
 * @property {boolean} [urgent]  show it as urgent
 *
 * @typedef {object} ReplayView  a game's part of a replay
 * @property {(state: object, ev: (object|null), forward: boolean) => void} show  the state after an event
 *   (forward: one step on: animate it)
 * @property {(state: object) => Node[]} info  the round and its goal, for the replay's status line
 */

/**
 * A game's part of the solo trainer: its puzzles as the trainer's API serves them
 * (GET /api/puzzles/…: "puzzle", "display"), played in the browser with no network.
 *
 * @typedef {object} TrainerModule
 * @property {(wrap: Element, input: (move: any) => void) => object} board  its board in `wrap` (render,
 *   setInteractive, handleKey); `input` gets each move the player makes on it
 * @property {object} empty  what the board draws with no puzzle
 * @property {(puzzle: object, board: object) => TrainerPlay} start  play a puzzle on that board
 *
 * One puzzle being played.
 * @typedef {object} TrainerPlay
 * @property {() => Array} moves  the moves so far, as the attempt sends them
 * @property {(move: any) => {error?: string, note?: string, solved?: boolean}} play  play a move of the player
 *   (error: refused, say it; note: say it; solved: the attempt is sent)
 * @property {() => void} undo
 * @property {() => void} reset
 * @property {() => void} redraw  draw the board as played so far
 * @property {(paths: Array, animate: boolean) => Promise<void>} showSolution  the optimal solution (hint 4, results)
 * @property {() => Node[]} goal  a picture and the words of the goal
 * @property {(level: number, hint: object) => string} hint  hints 2 to 4 in words (the API's hint object)
 * @property {string} keys  the string key of how to play with the keyboard
 */

/** Every loaded game by name, in the lobby's order. */
export const GAMES = {};

/** What the server says of each game (GET /static/games/index.json): {name, bot_levels}, by name. */
export const INFO = {};

/** The first game: the one a room without a name plays, the lobby's and the trainer's first choice. */
export let DEFAULT_GAME = null;

/** Load every game of the server: its module, strings and styles (at start, once). */
async function loadGames() {
  let listed = [];
  try {
    listed = (await api("/static/games/index.json")).games || [];
  } catch (e) {
    console.error("the list of games did not load", e);
  }
  for (const info of listed) INFO[info.name] = info;
  const names = listed.map((info) => info.name);
  const modules = await Promise.all(names.map(async (name) => {
    const url = `/static/games/${encodeURIComponent(name)}/game.js`;
    try {
      const mod = (await import(url)).default;
      addStrings(mod.strings || {});
      await Promise.all((mod.styles || []).map((s) => loadStyle(new URL(s, new URL(url, location.href)).href)));
      return mod;
    } catch (e) {
      console.error(`game ${name}: its module did not load`, e);
      return null;
    }
  }));
  for (const mod of modules) if (mod) GAMES[mod.name] = mod;
  DEFAULT_GAME = Object.keys(GAMES)[0] ?? null;
}

await loadGames();

/** The module of a game by name (the first game for rooms made before games had names). */
export function gameOf(name) { return GAMES[name] || GAMES[DEFAULT_GAME]; }
