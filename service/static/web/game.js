// The game page: one game, live (a seat or a spectator) or replayed step by step.
//
// Live: the page listens to the game's event stream (a seat's own, opened with a
// single-use ticket, or the spectator stream: live.js) and, when a message arrives,
// re-fetches the view, the new events and, for a seat, its legal actions with
// fetch() and the seat token.  While no stream is granted it reads the game every
// few seconds instead, and says so.
//
// Replay: a slider over versions 1..N shows `GET /v1/games/{id}?at=N`, with the
// event list beside the board.
//
// Timed games: every seat's clock counts down on the page (clocks.js), a seat may
// resign (after a confirmation) and the host link (a host token in the fragment)
// may cancel the game.

import * as api from "./api.js";
import { h, plural, replaceChildren } from "./dom.js";
import { eventList, describeEvent } from "./eventlog.js";
import { fragment, tokenKind } from "./route.js";
import { ClockSet, LOW_SECONDS, describeTimeControl, formatClock, standingOf, startsIn, timed, waitsForStart } from "./clocks.js";
import { TtrTable } from "./ttr.js";
import { CableCarTable } from "./cablecar.js";
import { PlacementChooser, squareKey } from "./choices.js";
import { LABELS, LiveLink } from "./live.js";

const LEGAL_PAGE = { "ttr-sf": 1000, "cable-car": 10000 };
const REPLAY_STEP_MS = 700;
// Pages of cable-car choices fetched at the start of a turn (more on demand).
const AUTO_PAGES = 2;
// How often a running clock is redrawn, and how long after a clock ran out the page
// reads the game again if no timeout arrived on the stream meanwhile.
const TICK_MS = 250;
const EXPIRED_RECHECK_MS = 1500;
const EXPIRED_RECHECKS = 3;

/** Whether the game has ended (finished, or cancelled by its host). */
export function isOver(view) {
  return view.status === "finished" || view.status === "cancelled";
}

export class GamePage {
  constructor(root, place) {
    this.root = root;
    this.id = place.id;
    this.token = place.token;
    this.replay = place.replay;
    this.startAt = place.at;
    this.view = null; // the newest view
    this.title = null; // the game type's title, as GET /v1/game-types lists it
    this.shown = null; // the view on the board (the replay position, or the newest)
    this.at = null;
    this.events = [];
    this.legal = null; // every legal action (Ticket to Ride), or null
    this.chooser = null; // the paged tile-pair chooser (cable cars), or null
    this.problem = null;
    this.problemFromRead = false; // the problem is a read's (cleared by the next read that succeeds)
    this.busy = false;
    this.live = null; // the stream, or the reads standing in for it (live.js)
    this.streamState = "off";
    this.lastRead = true; // whether the last read of the game succeeded (lastError: why not)
    this.lastError = null;
    this.refreshing = false;
    this.dirty = false;
    this.stopped = false;
    this.legalAbort = null;
    this.legalCursor = null;
    this.legalVersion = null;
    this.wants = [];
    this.pumping = false;
    this.replayAbort = null;
    this.playTimer = null;
    this.bar = null; // the replay controls
    this.slots = null; // the page's frame
    this.clocks = null; // the clocks of the view on the board (a ClockSet)
    this.clocksOf = null; // ... and that view
    this.ticker = null;
    this.rechecks = null; // {version, count, at}: reads after a clock ran out
    this.confirming = null; // "resign" or "cancel" while asking for a confirmation
    this.lowWarned = null; // the version whose low-time warning was announced
    this.dealing = false; // a replay shows a position inside the opening deal
  }

  /** Load the game and draw it; in live mode, start listening to its stream. */
  async start() {
    try {
      this.view = await api.gameView(this.id, { token: this.token });
      const [board, served] = await Promise.all([api.board(this.view.type), api.gameTypes()]);
      this.board = board;
      const type = served.types.find((t) => t.type === this.view.type);
      this.title = type ? type.title : this.view.type;
      this.renderer = this.view.type === "cable-car" ? new CableCarTable(this) : new TtrTable(this);
      this.events = await api.eventsAfter(this.id, this.token, 0);
    } catch (err) {
      if (!this.stopped) this.fail(err);
      return;
    }
    if (this.stopped) return;
    if (this.replay) {
      // a replay starts at the first event (Play steps through it); `at=` in the link opens another
      this.at = Math.min(this.startAt || 1, this.view.version);
      this.shown = this.at === this.view.version ? this.replayed(this.view, this.at) : null;
      this.render();
      if (!this.shown) await this.showAt(this.at);
      return;
    }
    this.shown = this.view;
    if (isOver(this.view)) this.streamState = "ended";
    this.render();
    this.openStream();
    this.loadLegal();
  }

  /** Leave the page: close the stream and cancel pending requests. */
  stop() {
    this.stopped = true;
    if (this.live) this.live.stop();
    if (this.legalAbort) this.legalAbort.abort();
    if (this.replayAbort) this.replayAbort.abort();
    clearInterval(this.playTimer);
    clearInterval(this.ticker);
  }

  fail(err) {
    const detail = err && err.detail ? err.detail : String(err);
    replaceChildren(
      this.root,
      h(
        "div",
        { class: "card" },
        h("h1", {}, "This game cannot be shown"),
        h("p", { class: "problem", role: "alert" }, detail),
        h("p", {}, h("a", { href: "#" }, "Back to the lobby")),
      ),
    );
  }

  // ------------------------------------------------------------------ who is looking

  get type() {
    return this.view.type;
  }

  get mySeat() {
    return this.view && this.view.me ? this.view.me.seat : null;
  }

  /** Whether this page holds the game's host token (it reads like a spectator). */
  get isHost() {
    return tokenKind(this.token) === "host" && this.mySeat === null;
  }

  /** Whether this page's seat is still in the game (not resigned, not timed out). */
  get stillIn() {
    return this.mySeat !== null && standingOf(this.view.players[this.mySeat]) === "in";
  }

  get names() {
    return (this.shown || this.view).players.map((p) => p.name);
  }

  /** Whether this page may act now (a seat in active_seats, live, not finished). */
  get canAct() {
    return !this.replay && this.stillIn && this.view.active_seats.includes(this.mySeat) && !isOver(this.view);
  }

  // ------------------------------------------------------------------ live updates

  openStream() {
    if (this.stopped) return;
    const page = this;
    this.live = new LiveLink({
      id: this.id,
      seatToken: () => (tokenKind(this.token) === "seat" ? this.token : null),
      versionNow: () => this.view.version,
      over: () => isOver(this.view),
      refresh: async () => {
        await this.scheduleRefresh();
        return this.lastRead;
      },
      get lastError() {
        return page.lastError;
      },
      onEvents: () => this.scheduleRefresh(),
      onState: (state) => this.setStreamState(state),
    });
    this.live.start();
  }

  setStreamState(state) {
    this.streamState = state;
    const el = this.root.querySelector(".live-state");
    if (el) {
      el.textContent = liveLabel(state);
      el.dataset.state = state;
    }
  }

  /** Re-fetch after a stream message; messages arriving meanwhile are folded into one more round. */
  async scheduleRefresh() {
    if (this.refreshing) {
      this.dirty = true;
      return;
    }
    this.refreshing = true;
    try {
      do {
        this.dirty = false;
        await this.refresh();
      } while (this.dirty && !this.stopped);
    } finally {
      this.refreshing = false;
    }
  }

  async refresh() {
    let view;
    let fresh;
    try {
      view = await api.gameView(this.id, { token: this.token });
      const last = this.events.length ? this.events[this.events.length - 1].seq : 0;
      fresh = view.version > last ? await api.eventsAfter(this.id, this.token, last) : [];
    } catch (err) {
      this.lastRead = false;
      this.lastError = err;
      this.showReadProblem(err);
      return;
    }
    this.lastRead = true;
    if (this.stopped) return;
    const recovered = this.readSucceeded();
    if (isOver(view) && this.live) this.live.end();
    const moved = view.version !== this.view.version || view.status !== this.view.status;
    const last = this.events.length ? this.events[this.events.length - 1].seq : 0;
    const added = fresh.filter((e) => e.seq > last);
    this.events.push(...added);
    if (!moved && !added.length) {
      if (recovered) {
        this.loadLegal(); // what failed to load while the server was away
        this.render();
      }
      return;
    }
    this.view = view;
    if (!this.replay) this.shown = view;
    if (moved) {
      this.renderer.reset();
      this.loadLegal();
      if (isOver(view)) this.confirming = null;
    }
    this.render();
  }

  /** Start fetching the seat's legal actions for the current version: every page of a
   * Ticket to Ride list; the first pages of a cable-car list (more on demand). */
  loadLegal() {
    if (this.legalAbort) this.legalAbort.abort();
    for (const want of this.wants || []) want.resolve();
    this.wants = [];
    this.legal = null;
    this.chooser = null;
    if (!this.canAct) return;
    this.legalAbort = new AbortController();
    this.legalVersion = this.view.version;
    this.legalCursor = ""; // the first page (null: no more pages)
    if (this.type === "cable-car") {
      this.chooser = new PlacementChooser();
      this.requestChoices((c) => c.pages >= AUTO_PAGES);
    } else {
      this.loadAllLegal();
    }
  }

  async loadAllLegal() {
    const signal = this.legalAbort.signal;
    const all = [];
    try {
      while (this.legalCursor !== null) {
        const page = await this.legalPage(signal);
        if (!page) return;
        all.push(...page.actions);
      }
      this.legal = all;
      this.readSucceeded();
      this.render();
    } catch (err) {
      if (err.name !== "AbortError") this.showReadProblem(err);
    }
  }

  /** The next page of legal actions, or null when the game moved on meanwhile. */
  async legalPage(signal) {
    const limit = LEGAL_PAGE[this.type] || 1000;
    let page;
    try {
      page = await api.legalActions(this.id, this.token, { cursor: this.legalCursor, limit, signal });
    } catch (err) {
      if (err.code !== "stale_cursor") throw err;
      this.scheduleRefresh(); // the game moved on between two pages: read its new list
      return null;
    }
    if (signal.aborted || this.stopped) return null;
    if (page.version !== this.legalVersion) {
      this.scheduleRefresh();
      return null;
    }
    this.legalCursor = page.next_cursor ?? null;
    return page;
  }

  /** Fetch more pages of tile choices until `satisfied(chooser)` holds or the list ends.
   * Resolves then; several requests share one sequence of fetches. */
  requestChoices(satisfied) {
    return new Promise((resolve) => {
      this.wants.push({ satisfied, resolve });
      this.pump();
    });
  }

  /** The "Load more" button: a few more pages of tile choices. */
  moreChoices() {
    if (!this.chooser) return;
    const target = this.chooser.pages + AUTO_PAGES;
    this.requestChoices((c) => c.pages >= target);
    this.renderer.grow();
  }

  async pump() {
    if (this.pumping || !this.chooser) return;
    this.pumping = true;
    const chooser = this.chooser;
    const signal = this.legalAbort.signal;
    try {
      for (;;) {
        this.wants = this.wants.filter((w) => {
          const done = chooser.complete || w.satisfied(chooser);
          if (done) w.resolve();
          return !done;
        });
        if (!this.wants.length || signal.aborted) break;
        const page = await this.legalPage(signal);
        if (!page) break;
        const first = chooser.pages === 0;
        chooser.add(page.actions, page.total, this.legalCursor === null);
        if (first) {
          this.render();
          this.probeSquares(chooser);
        } else this.renderer.grow();
      }
    } catch (err) {
      if (err.name !== "AbortError") this.showReadProblem(err);
    } finally {
      this.pumping = false;
      if (this.chooser && this.chooser !== chooser) this.pump(); // a new turn began meanwhile
      else if (this.chooser === chooser && !this.stopped) this.renderer.grow(); // "Load more" again
    }
  }

  /** Ask square by square (`?square=R,C&limit=1`: its `total`) where the rest of the list
   * starts, so that every square a first tile may go on is highlighted from the start,
   * not only the rows the first pages reached. A few requests at a time. */
  async probeSquares(chooser) {
    const signal = this.legalAbort.signal;
    const version = this.legalVersion;
    const stops = new Set(this.board.stops.map((st) => squareKey(st.row, st.col)));
    const listed = chooser.firstSquares();
    const todo = [];
    for (let row = 1; row <= this.board.grid.rows; row++) {
      for (let col = 1; col <= this.board.grid.cols; col++) {
        const key = squareKey(row, col);
        if (!stops.has(key) && !listed.has(key) && chooser.beyondFrontier(row, col)) todo.push(key);
      }
    }
    const ask = async () => {
      while (todo.length && this.chooser === chooser && !signal.aborted) {
        const key = todo.shift();
        if (!chooser.squareMayGrow(key)) continue; // the pages or the player got there first
        const page = await api.legalActions(this.id, this.token, { square: key, limit: 1, signal });
        if (page.version !== version || this.chooser !== chooser) return;
        chooser.noteSquare(key, page.total);
        this.renderer.grow();
      }
    };
    try {
      await Promise.all([ask(), ask(), ask()]);
    } catch {
      // only a help: on a refusal (a rate limit, the game moving on) the squares not asked stay faint,
      // and still open their tiles when clicked; the turn's own requests report what went wrong
    }
  }

  /** Every action whose first placement is on square `key`, folded into `chooser`
   * (when the player opens a square the pages have not reached). */
  async loadSquare(chooser, key) {
    const signal = this.legalAbort.signal;
    const version = this.legalVersion;
    const actions = [];
    let cursor = null;
    try {
      do {
        const page = await api.legalActions(this.id, this.token, { square: key, cursor, limit: LEGAL_PAGE["cable-car"], signal });
        if (page.version !== version || this.chooser !== chooser) return;
        actions.push(...page.actions);
        cursor = page.next_cursor ?? null;
      } while (cursor);
    } catch (err) {
      if (err.code === "stale_cursor") this.scheduleRefresh();
      else if (err.name !== "AbortError") this.showReadProblem(err);
      return;
    }
    chooser.addSquare(key, actions);
  }

  /** Send one of the listed legal actions. */
  async act(action) {
    if (this.busy) return;
    this.busy = true;
    this.problem = null;
    this.problemFromRead = false;
    this.render();
    try {
      await api.sendAction(this.id, this.token, action, this.view.version);
    } catch (err) {
      this.busy = false;
      this.showProblem(err);
      if (err.code === "stale_version" || err.code === "not_your_turn") this.scheduleRefresh();
      return;
    }
    this.busy = false;
    await this.scheduleRefresh();
  }

  /** Resign for this page's seat (after the confirmation): decided on the newest state,
   * whatever happened since this page last looked. */
  async resign() {
    if (this.busy || !this.stillIn) return;
    this.confirming = null;
    await this.manage(() => api.sendAction(this.id, this.token, { type: "resign" }));
  }

  /** Cancel the game with the host token (after the confirmation). */
  async cancel() {
    if (this.busy || !this.isHost) return;
    this.confirming = null;
    await this.manage(() => api.cancelGame(this.id, this.token));
  }

  async manage(send) {
    this.busy = true;
    this.problem = null;
    this.problemFromRead = false;
    this.render();
    try {
      await send();
    } catch (err) {
      this.busy = false;
      this.showProblem(err);
      this.scheduleRefresh();
      return;
    }
    this.busy = false;
    await this.scheduleRefresh();
  }

  /** Ask for (or drop) a confirmation; the focus goes to the safe choice. */
  confirm(what) {
    this.confirming = what;
    this.render();
    const key = what ? `${what}-keep` : this.isHost ? "cancel-game" : "resign";
    const el = this.root.querySelector(`[data-key="${key}"]`);
    if (el) el.focus();
  }

  /** What went wrong with an action: shown until the next action. */
  showProblem(err) {
    this.problem = err && err.detail ? err.detail : String(err);
    this.problemFromRead = false;
    this.render();
    if (this.slots && this.problem) this.slots.problem.scrollIntoView({ block: "nearest" });
  }

  /** A read failed (the game, its events, the legal actions, a replay position): say why, until a
   * read succeeds again. A spectator's page that never clicked anything must not keep saying that the
   * server could not be reached once it follows the game again. */
  showReadProblem(err) {
    this.showProblem(err);
    this.problemFromRead = true;
  }

  /** A read succeeded: a problem a read met is over (not an action's). Whether one was cleared; the
   * caller draws the page again. */
  readSucceeded() {
    if (!this.problemFromRead) return false;
    this.problem = null;
    this.problemFromRead = false;
    return true;
  }

  // ------------------------------------------------------------------ replay

  async showAt(n) {
    const at = Math.max(1, Math.min(n, this.view.version));
    this.at = at;
    if (this.replayAbort) this.replayAbort.abort();
    const controller = new AbortController();
    this.replayAbort = controller;
    history.replaceState(null, "", fragment({ id: this.id, token: this.token, replay: true, at }));
    try {
      const view = await api.gameView(this.id, { token: this.token, at, signal: controller.signal });
      if (controller.signal.aborted || this.stopped) return;
      this.shown = this.replayed(view, at);
      this.readSucceeded();
      this.renderer.reset();
      this.render();
    } catch (err) {
      if (err.name !== "AbortError") this.showReadProblem(err);
    }
  }

  /** The view after event `at` as the replay shows it: while the opening deal is still being
   * recorded (the events the game was created with, up to the renderer's `dealtBy`), nobody is to act
   * yet, whatever seats the half-dealt state would name. */
  replayed(view, at) {
    this.dealing = at < this.renderer.dealtBy(this.events);
    return this.dealing ? { ...view, active_seats: [] } : view;
  }

  togglePlay() {
    if (this.playTimer) {
      clearInterval(this.playTimer);
      this.playTimer = null;
    } else {
      if (this.at >= this.view.version) this.at = 0;
      this.playTimer = setInterval(() => {
        if (this.at >= this.view.version) {
          clearInterval(this.playTimer);
          this.playTimer = null;
          this.render();
          return;
        }
        this.showAt(this.at + 1);
      }, REPLAY_STEP_MS);
    }
    this.render();
  }

  /** The replay controls, built once and updated in place (a slider redrawn under the
   * pointer would drop the drag). */
  replayBar() {
    if (this.bar) return this.bar;
    const slider = h("input", {
      type: "range",
      min: "1",
      step: "1",
      id: "replay-slider",
      "data-key": "replay-slider",
      "aria-label": "Replay position (event number)",
    });
    slider.addEventListener("input", () => this.showAt(Number(slider.value)));
    const step = (label, key, to, text) =>
      h("button", { type: "button", class: "small secondary", "aria-label": label, "data-key": key, onclick: () => this.showAt(to()) }, text);
    const play = h("button", { type: "button", class: "small", "data-key": "rp-play", onclick: () => this.togglePlay() }, "Play");
    const position = h("p", { class: "replay-pos", "aria-live": "polite" });
    const el = h(
      "div",
      { class: "replay-bar card", role: "group", "aria-label": "Replay" },
      h(
        "div",
        { class: "row" },
        step("First event", "rp-first", () => 1, "|◀"),
        step("Previous event", "rp-prev", () => this.at - 1, "◀"),
        slider,
        step("Next event", "rp-next", () => this.at + 1, "▶"),
        step("Last event", "rp-last", () => this.view.version, "▶|"),
        play,
      ),
      position,
    );
    this.bar = { el, slider, play, position };
    return this.bar;
  }

  updateReplayBar() {
    const { slider, play, position } = this.replayBar();
    const max = this.view.version;
    slider.max = String(max);
    slider.value = String(this.at);
    slider.setAttribute("aria-valuetext", `event ${this.at} of ${max}`);
    play.textContent = this.playTimer ? "Pause" : "Play";
    const current = this.events.find((e) => e.seq === this.at);
    position.replaceChildren(h("strong", {}, `Event ${this.at} of ${max}`), current ? `: ${describeEvent(current, this.logContext())}` : "");
  }

  // ------------------------------------------------------------------ drawing

  logContext() {
    return { type: this.type, names: this.names, board: this.board };
  }

  banner(view) {
    if (view.status === "cancelled") return "The game was cancelled by its host: it has no result.";
    if (view.status === "finished") return "The game is over.";
    if (waitsForStart(view)) return startsIn(view, api.serverNow());
    const names = view.players.map((p) => p.name);
    const active = view.active_seats.map((s) => names[s]);
    if (this.replay && this.dealing) return "Setup: the cards are being dealt.";
    if (this.replay) return active.length ? `To act: ${active.join(", ")}` : "";
    if (this.mySeat !== null && !this.stillIn) {
      const gone = standingOf(view.players[this.mySeat]) === "timed_out" ? "ran out of time" : "resigned";
      return `You ${gone}: the game goes on without you.` + (active.length ? ` Waiting for ${active.join(", ")}.` : "");
    }
    if (this.mySeat !== null && view.active_seats.includes(this.mySeat)) {
      return view.status === "setup" ? "Setup: your choices are needed." : "Your turn.";
    }
    if (!active.length) return "Waiting.";
    return `Waiting for ${active.join(", ")}.`;
  }

  header(view) {
    const me = this.mySeat !== null ? view.players[this.mySeat] : null;
    let who = me ? `You play seat ${this.mySeat + 1}: ${me.name}` : "You are watching as a spectator";
    if (this.isHost) who = "You are the host (you watch as a spectator and may cancel the game)";
    const links = [];
    if (this.replay) {
      links.push(h("a", { href: fragment({ id: this.id, token: this.token }), class: "button small", "data-key": "to-live" }, view.status === "finished" ? "Final position" : "Live"));
    } else {
      links.push(h("a", { href: fragment({ id: this.id, token: this.token, replay: true }), class: "button small secondary", "data-key": "to-replay" }, "Replay"));
    }
    if (this.token) {
      links.push(h("a", { href: fragment({ id: this.id }), class: "button small secondary", "data-key": "to-watch" }, "Spectator view"));
    }
    return [
      h(
        "div",
        {},
        h("h1", {}, this.title),
        h(
          "p",
          { class: "meta" },
          h("span", { class: `pill status-${view.status}` }, view.status.replace("_", " ")),
          " ",
          h("span", { class: "version" }, `version ${this.replay ? `${this.at} / ${this.view.version}` : view.version}`),
          " · ",
          h("span", { class: "game-id" }, `game ${this.id}`),
          " · ",
          who,
          timed(view) ? [" · ", h("span", { class: "time-control" }, `time limit: ${describeTimeControl(view.time_control)}`)] : null,
          this.replay ? null : [" · ", h("span", { class: "live-state", "data-state": this.streamState, "aria-live": "polite" }, liveLabel(this.streamState))],
        ),
      ),
      h("div", { class: "head-side" }, h("nav", { class: "row", "aria-label": "Game views" }, links), this.controls(view)),
    ];
  }

  /** Resign (a seat still in) or Cancel (the host), each behind a confirmation. */
  controls(view) {
    if (this.replay || isOver(view)) return null;
    let what = null;
    if (this.stillIn) what = "resign";
    else if (this.isHost) what = "cancel";
    if (!what) return null;
    const words = {
      resign: { open: "Resign…", ask: "Resign this game? You leave it for good and rank below every player still in.", yes: "Yes, resign", no: "Keep playing", key: "resign" },
      cancel: { open: "Cancel the game…", ask: "Cancel this game for everybody? It ends at once with no result.", yes: "Yes, cancel the game", no: "Keep the game", key: "cancel-game" },
    }[what];
    const busy = this.busy;
    if (this.confirming !== what) {
      return h(
        "div",
        { class: "row manage" },
        h("button", { type: "button", class: "small danger", "data-key": words.key, disabled: busy, onclick: () => this.confirm(what) }, words.open),
      );
    }
    const box = h(
      "div",
      { class: "confirm manage", role: "group", "aria-label": words.open.replace("…", ""), "data-confirm": what },
      h("p", { id: `${what}-ask` }, words.ask),
      h(
        "div",
        { class: "row" },
        h(
          "button",
          { type: "button", class: "small primary danger", "data-key": `${what}-confirm`, "aria-describedby": `${what}-ask`, disabled: busy, onclick: () => (what === "resign" ? this.resign() : this.cancel()) },
          words.yes,
        ),
        h("button", { type: "button", class: "small secondary", "data-key": `${what}-keep`, onclick: () => this.confirm(null) }, words.no),
      ),
    );
    box.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.confirm(null);
    });
    return box;
  }

  /** The page's frame, built once: the parts that are redrawn go into its slots. */
  frame() {
    if (this.slots && this.root.contains(this.slots.game)) return this.slots;
    const head = h("div", { class: "game-head" });
    const banner = h("p", { class: "banner", role: "status" });
    const problem = h("p", { class: "problem", role: "alert", hidden: true });
    const myClock = h(
      "p",
      { class: "my-clock", hidden: true },
      h("span", { class: "my-clock-label" }, "Your time: "),
      h("span", { class: "my-clock-time" }),
      h("span", { class: "my-clock-warning" }),
    );
    const alert = h("p", { class: "sr-only clock-alert", role: "alert" });
    const board = h("div", { class: "board-area" });
    const panels = h("div", { class: "panels" });
    const side = h("div", { class: "side" }, this.replay ? this.replayBar().el : null, panels);
    const game = h(
      "div",
      { class: `game game-${this.type}${this.replay ? " replaying" : ""}` },
      head,
      banner,
      myClock,
      alert,
      problem,
      h("div", { class: "table" }, board, side),
    );
    replaceChildren(this.root, game);
    this.slots = { game, head, banner, myClock, alert, problem, board, panels };
    return this.slots;
  }

  render() {
    if (this.stopped || !this.renderer) return;
    const view = this.shown || this.view;
    const slots = this.frame();
    replaceChildren(slots.head, ...this.header(view));
    slots.banner.textContent = this.banner(view);
    slots.problem.textContent = this.problem || "";
    slots.problem.hidden = !this.problem;
    if (this.replay) this.updateReplayBar();
    if (view === this.shown || !this.replay) replaceChildren(slots.board, this.renderer.board(view), this.renderer.legend());
    else replaceChildren(slots.board, h("p", {}, "Loading…"));

    const panels = this.renderer.panels(view);
    if (isOver(view) && view.result) panels.push(this.renderer.result(view));
    const log = h(
      "section",
      { class: "card log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title" }, "Events ", h("span", { class: "hint" }, plural(this.events.length, "event"))),
      eventList(this.events, this.logContext(), this.replay ? { current: this.at, onPick: (seq) => this.showAt(seq) } : {}),
    );
    const oldList = slots.panels.querySelector(".events");
    const wasAtBottom = !oldList || oldList.scrollTop + oldList.clientHeight >= oldList.scrollHeight - 8;
    const oldScroll = oldList ? oldList.scrollTop : 0;
    replaceChildren(slots.panels, ...panels, log);
    const list = slots.panels.querySelector(".events");
    if (this.replay) {
      const current = list.querySelector(".current");
      if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
    } else {
      list.scrollTop = wasAtBottom ? list.scrollHeight : oldScroll;
    }
    this.startClocks(view);
  }

  // ------------------------------------------------------------------ clocks

  /** The clocks of the view on the board; a live page keeps the running ones ticking. */
  startClocks(view) {
    if (this.clocksOf !== view) {
      this.clocks = timed(view) ? new ClockSet(view, api.serverNow(), { live: !this.replay }) : null;
      this.clocksOf = view;
    }
    const ticking = Boolean(this.clocks && this.clocks.live && (view.clocks || []).some((c) => c.running))
      || (waitsForStart(view) && !this.replay); // a scheduled game counts down to its start
    if (ticking && !this.ticker) this.ticker = setInterval(() => this.tick(), TICK_MS);
    if (!ticking && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
    this.tick();
  }

  /** Redraw every clock in place (nothing else is redrawn), warn under ten seconds,
   * and read the game again if a clock ran out and no timeout came on the stream. */
  tick() {
    if (this.stopped || !this.slots) return;
    const clocks = this.clocks;
    const view = this.clocksOf;
    const now = api.serverNow();
    for (const el of this.slots.panels.querySelectorAll(".clock[data-seat]")) {
      const seat = Number(el.dataset.seat);
      const left = clocks ? clocks.remaining(seat, now) : null;
      const running = Boolean(clocks && clocks.running(seat));
      const low = running && left !== null && left < LOW_SECONDS;
      const text = left === null ? "–" : formatClock(left);
      if (el.textContent !== text) el.textContent = text;
      el.dataset.running = String(running);
      el.classList.toggle("low", low);
      const row = el.closest("tr");
      if (row) row.classList.toggle("low-time", low);
      const warning = el.parentElement.querySelector(".time-warning");
      if (warning) {
        warning.hidden = !low;
        const words = low ? ` ${Math.ceil(left)} s left` : "";
        if (warning.textContent !== words) warning.textContent = words;
      }
    }
    // this seat's own clock, above the board, while it runs
    const mine = this.slots.myClock;
    const seat = this.mySeat;
    const myRunning = Boolean(clocks && seat !== null && clocks.running(seat));
    mine.hidden = !myRunning;
    if (myRunning) {
      const left = clocks.remaining(seat, now);
      const low = left < LOW_SECONDS;
      mine.classList.toggle("low", low);
      mine.querySelector(".my-clock-time").textContent = formatClock(left);
      mine.querySelector(".my-clock-warning").textContent = low ? ` — hurry: ${Math.ceil(left)} s left!` : "";
      if (low && this.lowWarned !== view.version) {
        this.lowWarned = view.version;
        this.slots.alert.textContent = "Less than 10 seconds left in your turn.";
      }
    }
    if (!myRunning || this.lowWarned !== view.version) {
      if (this.slots.alert.textContent) this.slots.alert.textContent = ""; // announced again next time
    }
    if (clocks && clocks.live && !this.replay && clocks.expired(now).length) this.recheck(view.version);
    if (waitsForStart(view) && !this.replay) {
      const words = startsIn(view, now);
      if (this.slots.banner.textContent !== words) this.slots.banner.textContent = words;
      // at its time the server starts the game (its sweeper, or this read): the stream says so, else read again
      if (Date.parse(view.starts_at) <= now) this.recheck(view.version);
    }
  }

  /** A clock ran out: the server appends the timeout (its sweeper, or any read after
   * the deadline), and the stream says so; should no message come, read again. */
  recheck(version) {
    const now = Date.now();
    if (!this.rechecks || this.rechecks.version !== version) this.rechecks = { version, count: 0, at: now };
    const r = this.rechecks;
    if (r.count >= EXPIRED_RECHECKS || now - r.at < EXPIRED_RECHECK_MS) return;
    r.count += 1;
    r.at = now;
    this.scheduleRefresh();
  }
}

function liveLabel(state) {
  return LABELS[state] || state;
}
