// The games the web shell knows, by the name the server sends in every state.
// A game's module gives its board view, how its goal and winnings look, its
// log lines, its host controls and its lobby options (see games/*/game.js).

import robots from "./ricochet-robots/game.js";
import pyramids from "./pyramids/game.js";
import micro from "./micro-robots/game.js";
import rambots from "./rambots/game.js";

export const GAMES = { [robots.name]: robots, [pyramids.name]: pyramids, [micro.name]: micro, [rambots.name]: rambots };
export const DEFAULT_GAME = robots.name;

/** The module of a game by name (Ricochet Robots for rooms made before games had names). */
export function gameOf(name) { return GAMES[name] || GAMES[DEFAULT_GAME]; }
