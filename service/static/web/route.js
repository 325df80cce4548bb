// Where the page is, read from and written to the URL fragment.
//
//   #                              the lobby
//   #game=ID                       watch a game (spectator)
//   #game=ID&token=st_...          play a seat
//   #game=ID&token=ht_...          host a game: watch it, and cancel it
//   #game=ID&replay                replay a game (optionally &at=N, and with a token)
//
// The fragment is never sent to the server, so seat tokens stay out of request
// lines, query strings and access logs.

/** The place the fragment names: {page: "lobby"} or {page: "game", id, token, replay, at}. */
export function parseFragment(hash) {
  const params = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const id = params.get("game");
  if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return { page: "lobby" };
  const at = Number.parseInt(params.get("at") || "", 10);
  return {
    page: "game",
    id,
    token: params.get("token") || null,
    replay: params.has("replay"),
    at: Number.isFinite(at) && at > 0 ? at : null,
  };
}

/** What a token is by its documented shape (`st_<game>_<secret>` for a seat,
 * `ht_<game>_<secret>` for the host): "seat", "host" or null. */
export function tokenKind(token) {
  if (!token) return null;
  if (token.startsWith("st_")) return "seat";
  if (token.startsWith("ht_")) return "host";
  return null;
}

/** The fragment of a place (the inverse of parseFragment). */
export function fragment({ id, token = null, replay = false, at = null }) {
  const params = new URLSearchParams({ game: id });
  if (token) params.set("token", token);
  if (replay) params.set("replay", "");
  if (replay && at) params.set("at", String(at));
  return "#" + params.toString().replace(/replay=(&|$)/, "replay$1");
}

/** An absolute link to a place on this page (for sharing). */
export function absoluteLink(place) {
  const base = new URL(window.location.href);
  base.hash = "";
  return base.toString().replace(/#$/, "") + fragment(place);
}
