// The public HTTP API, and nothing else: every call the page makes goes through here.
// Paths are relative, so the page also works behind a proxy that mounts the service
// under a prefix.

/** A refusal from the server: an application/problem+json body, or a network failure. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "network_error";
    this.detail = problem.detail || this.message;
    this.problem = problem;
    this.retryAfter = null; // seconds, when the server said when to try again
  }
}

// The server's clock, as far as the HTTP Date headers tell (whole seconds): the range
// of offsets (server time - this browser's time, in ms) every answer so far allows.
let skew = { lo: -Infinity, hi: Infinity };

function noteServerDate(value, sentAt, receivedAt) {
  const date = value ? Date.parse(value) : NaN;
  if (!Number.isFinite(date)) return;
  // The server stamped some moment in [date, date + 1 s) between sending and receiving.
  const lo = date - receivedAt;
  const hi = date + 1000 - sentAt;
  const both = { lo: Math.max(skew.lo, lo), hi: Math.min(skew.hi, hi) };
  skew = both.lo <= both.hi ? both : { lo, hi }; // the server's clock was set: start again
}

/** Milliseconds to add to this browser's clock to read the server's (0 when they agree
 * within what the Date headers can tell). */
export function serverOffset() {
  if (skew.lo <= 0 && skew.hi >= 0) return 0;
  return skew.lo > 0 ? skew.lo : skew.hi;
}

/** The server's time now, in milliseconds since the epoch (deadlines are in its time). */
export function serverNow() {
  return Date.now() + serverOffset();
}

function headers(token, extra) {
  const out = { Accept: "application/json", ...extra };
  if (token) out.Authorization = `Bearer ${token}`;
  return out;
}

/** One request; resolves to the parsed JSON body, rejects with an ApiError. */
export async function request(path, { method = "GET", token = null, body, signal, key } = {}) {
  const extra = {};
  if (body !== undefined) extra["Content-Type"] = "application/json";
  if (key) extra["Idempotency-Key"] = key;
  let resp;
  const sentAt = Date.now();
  try {
    resp = await fetch(path, {
      method,
      headers: headers(token, extra),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: "no-store",
      credentials: "omit",
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, { code: "network_error", detail: `The server could not be reached (${err.message}).` });
  }
  noteServerDate(resp.headers.get("Date"), sentAt, Date.now());
  const text = await resp.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!resp.ok) {
    const err = new ApiError(resp.status, data && typeof data === "object" ? data : { detail: `HTTP ${resp.status}` });
    const wait = Number(resp.headers.get("Retry-After"));
    if (Number.isFinite(wait) && wait > 0) err.retryAfter = wait;
    throw err;
  }
  return data;
}

const boards = new Map();

/** Static board data of a game type (fetched once per page load). */
export function board(type) {
  if (!boards.has(type)) {
    const pending = request(`v1/boards/${encodeURIComponent(type)}`);
    pending.catch(() => boards.delete(type));
    boards.set(type, pending);
  }
  return boards.get(type);
}

/** The game types the server plays. */
export function gameTypes() {
  return request("v1/game-types");
}

/** A page of games, newest first. */
export function listGames({ type, status, cursor, limit = 20 } = {}) {
  const q = new URLSearchParams({ limit: String(limit) });
  if (type) q.set("type", type);
  if (status) q.set("status", status);
  if (cursor) q.set("cursor", cursor);
  return request(`v1/games?${q}`);
}

/** Create and start a game: {type, players: [{name}], seed?, open_deal?, time_control?}. */
export function createGame(body) {
  return request("v1/games", { method: "POST", body });
}

/** The game as the caller sees it, now or right after event `at`. */
export function gameView(id, { token, at, signal } = {}) {
  const q = at ? `?at=${at}` : "";
  return request(`v1/games/${encodeURIComponent(id)}${q}`, { token, signal });
}

/** One page of the seat's legal actions; without `cursor` the first (a cursor is opaque: the
 * `next_cursor` of the page before, refused with 409 `stale_cursor` once the game has moved on). */
export function legalActions(id, token, { cursor = null, limit = 1000, square = null, signal } = {}) {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor) q.set("cursor", cursor);
  if (square) q.set("square", square); // "row,col": only the actions whose first placement is there
  return request(`v1/games/${encodeURIComponent(id)}/legal-actions?${q}`, { token, signal });
}

/** Send one action for the seat (exactly a body the server listed as legal); without
 * `expectedVersion` the server decides it on the newest state (a resignation). */
export function sendAction(id, token, action, expectedVersion) {
  const body = expectedVersion === undefined || expectedVersion === null ? { ...action } : { ...action, expected_version: expectedVersion };
  const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  return request(`v1/games/${encodeURIComponent(id)}/actions`, { method: "POST", token, body, key });
}

/** End the game with no result (host token); answers the spectator view. */
export function cancelGame(id, hostToken) {
  return request(`v1/games/${encodeURIComponent(id)}/cancel`, { method: "POST", token: hostToken });
}

/** The event log after `after`, every page of it, as the caller may see it. */
export async function eventsAfter(id, token, after = 0, signal) {
  const out = [];
  let position = after;
  for (;;) {
    const q = new URLSearchParams({ after: String(position), limit: "1000" });
    const page = await request(`v1/games/${encodeURIComponent(id)}/events?${q}`, { token, signal });
    out.push(...page.events);
    if (page.next_after === null || page.next_after === undefined || !page.events.length) return out;
    position = page.next_after;
  }
}

/** A single-use ticket opening the seat's own event stream (EventSource cannot send its token). */
export function streamTicket(id, seatToken) {
  return request(`v1/games/${encodeURIComponent(id)}/stream-tickets`, { method: "POST", token: seatToken });
}

/** The URL of the game's event stream: a seat's with its `ticket`, else the spectator stream. */
export function streamUrl(id, after, ticket = null) {
  const q = new URLSearchParams({ after: String(after) });
  if (ticket) q.set("ticket", ticket);
  return `v1/games/${encodeURIComponent(id)}/events/stream?${q}`;
}
