// Entry point: show the lobby or a game, as the URL fragment says.

import { replaceChildren, h } from "./dom.js";
import { renderLobby } from "./lobby.js";
import { GamePage } from "./game.js";
import { parseFragment } from "./route.js";

let current = null;

function show() {
  const root = document.getElementById("main");
  if (current) current.stop();
  current = null;
  const place = parseFragment(window.location.hash);
  document.title = place.page === "game" ? `Game ${place.id} · Cable Car` : "Cable Car";
  if (place.page === "lobby") {
    renderLobby(root).catch((err) => replaceChildren(root, h("p", { class: "problem", role: "alert" }, String(err))));
    return;
  }
  replaceChildren(root, h("p", { class: "loading" }, "Loading the game…"));
  current = new GamePage(root, place);
  current.start();
}

window.addEventListener("hashchange", (e) => {
  // The replay slider rewrites the fragment with history.replaceState, which fires no
  // hashchange; any other change of the fragment is a new place.
  const before = parseFragment(new URL(e.oldURL).hash);
  const after = parseFragment(new URL(e.newURL).hash);
  if (current && before.page === "game" && after.page === "game" && before.id === after.id && before.token === after.token && before.replay && after.replay) {
    current.showAt(after.at || current.view.version);
    return;
  }
  show();
  window.scrollTo(0, 0);
});

show();
