// Entry point: language switch and routing.  "/" is the lobby, "/r/{id}" a
// room ("?watch=1" as a spectator, "?replay=1[&game=N]" the replay of its game).

import { apply, getLang, setLang, onLangChange } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountRoom } from "./room.js";
import { mountReplay } from "./replay.js";

const root = document.getElementById("app");
const langSelect = document.getElementById("lang");
document.documentElement.lang = getLang();
langSelect.value = getLang();
langSelect.addEventListener("change", () => setLang(langSelect.value));
onLangChange(() => apply());
apply();

const match = location.pathname.match(/^\/r\/([A-Za-z0-9_-]{1,64})\/?$/);
const params = new URLSearchParams(location.search);
if (match) {
  const roomId = match[1];
  if (params.has("replay")) mountReplay(root, roomId, { game: params.get("game") });
  else mountRoom(root, roomId, { watch: params.has("watch") });
} else {
  mountLobby(root);
}
