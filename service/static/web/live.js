// How a game page keeps up with its game: the event stream while the server grants one,
// reading the game otherwise.
//
// A seat's page opens its own stream with a single-use ticket (POST stream-tickets with
// the seat token; EventSource cannot send a token), a new ticket on each attempt; a
// spectator's or host's page opens the spectator stream.  When the stream is refused
// (503 streams_busy, which EventSource reports as a bare error), breaks or ends early,
// the page reads `GET /v1/games/{id}` and the events after its version every `pace`
// seconds (the server's Retry-After: 5 s, or what a refused read said) and tries the
// stream again after each read.  What it shows is what is true now:
//   "live"        a stream is open;
//   "catching-up" no stream, but the reads succeed;
//   "offline"     the reads fail;
//   "ended"       the game is over: nothing to follow.

import * as api from "./api.js";

// Seconds between two reads while no stream is open: the server's Retry-After for a refused stream.
export const PACE_SECONDS = 5;
// How soon a stream that was open is tried again once it closes (its normal end after some minutes).
const REOPEN_MS = 1000;

export const LABELS = {
  live: "● live",
  "catching-up": "catching up (reading every few seconds)",
  offline: "offline (retrying)",
  ended: "game over",
  off: "connecting…",
};

export class LiveLink {
  /**
   * @param {object} page  the game page: `id`, `token`, `seatToken()` (the token if it is a
   *   seat's, else null), `versionNow()`, `over()`, `refresh()` (resolves true when the game
   *   was read, false when the read failed, with `lastError`), `onEvents()` (a stream message)
   *   and `onState(state)`.
   */
  constructor(page) {
    this.page = page;
    this.source = null;
    this.timer = null;
    this.state = "off";
    this.stopped = false;
    this.attempt = 0;
  }

  /** Start following the game (or say it is over). */
  start() {
    if (this.page.over()) return this.end();
    this.open();
  }

  stop() {
    this.stopped = true;
    this.closeSource();
    clearTimeout(this.timer);
  }

  /** The game is over: no stream, no reads, no "connecting". */
  end() {
    this.closeSource();
    clearTimeout(this.timer);
    this.set("ended");
  }

  set(state) {
    if (this.state === state) return;
    this.state = state;
    this.page.onState(state);
  }

  closeSource() {
    if (this.source) this.source.close();
    this.source = null;
  }

  async open() {
    if (this.stopped || this.page.over()) return;
    const attempt = ++this.attempt;
    let url;
    try {
      const token = this.page.seatToken();
      const ticket = token ? (await api.streamTicket(this.page.id, token)).ticket : null;
      url = api.streamUrl(this.page.id, this.page.versionNow(), ticket);
    } catch (err) {
      if (attempt === this.attempt) this.fallBack(err);
      return;
    }
    if (this.stopped || attempt !== this.attempt) return;
    const source = new EventSource(url);
    this.source = source;
    let opened = false;
    source.addEventListener("open", () => {
      opened = true;
      clearTimeout(this.timer);
      this.set("live");
      this.page.onEvents(); // whatever happened while no stream was open
    });
    source.addEventListener("message", () => this.page.onEvents());
    source.addEventListener("end", () => {
      this.closeSource();
      this.page.onEvents();
      this.end();
    });
    source.addEventListener("error", () => {
      if (this.source !== source) return;
      // A refused stream (503, 401 for a used ticket) or a broken one: a ticket serves once,
      // so the stream is never left to reconnect by itself.
      this.closeSource();
      this.fallBack(null, opened ? REOPEN_MS : PACE_SECONDS * 1000);
    });
  }

  /** No stream: read the game at the pace, and try the stream again after each read. */
  fallBack(err, delayMs) {
    if (this.stopped) return;
    if (err) this.set(err.status === 0 || err.status >= 500 ? "offline" : "catching-up");
    else if (this.state !== "offline") this.set("catching-up");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), delayMs ?? paceOf(err));
  }

  async poll() {
    if (this.stopped) return;
    const read = await this.page.refresh();
    if (this.stopped) return;
    if (this.page.over()) return this.end();
    if (!read) {
      this.set("offline");
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.poll(), paceOf(this.page.lastError));
      return;
    }
    this.set("catching-up");
    this.open();
  }
}

function paceOf(err) {
  const seconds = err && Number.isFinite(err.retryAfter) && err.retryAfter > 0 ? err.retryAfter : PACE_SECONDS;
  return Math.min(seconds, 60) * 1000;
}
