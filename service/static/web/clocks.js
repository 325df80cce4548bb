// Time controls on the page: each seat's clock counting down, the warning under
// ten seconds, and how a seat that left the game (resigned, timed out) is marked.
//
// A view carries `clocks` ([{seat, remaining_seconds, running}], the time left at the
// view's version, that is at its last event) and `deadline` (the earliest running
// deadline, an absolute UTC time).  Every running clock started counting at the same
// moment, the view's version, so that moment is `deadline - min(running remaining)`
// and each running seat's own deadline is that moment plus its remaining seconds.
// The page counts down from those deadlines against the server's time (the browser's
// clock corrected by the skew api.js measures from the HTTP Date header).

import { h } from "./dom.js";

/** Below this many seconds the seat's clock warns. */
export const LOW_SECONDS = 10;

/** Whether the view has a time control at all. */
export function timed(view) {
  return Boolean(view && view.time_control && view.time_control.kind !== "none" && (view.clocks || []).length);
}

/** Whether the players table shows a clock per seat: a timed game not yet over (once
 * it is over the clocks mean nothing more). */
export function showsClocks(view) {
  return timed(view) && !["finished", "cancelled"].includes(view.status);
}

/** Whether the view is a scheduled game still waiting for its start (`starts_at`). */
export function waitsForStart(view) {
  return Boolean(view && view.status === "scheduled" && view.starts_at);
}

/** A scheduled game's countdown in words, at `now` (milliseconds of the server's time):
 * "The game starts in 4:59 (at 18:00:00 UTC). Nobody can act before." */
export function startsIn(view, now) {
  const at = Date.parse(view.starts_at);
  const left = Math.max(0, (at - now) / 1000);
  const when = new Date(at).toISOString().slice(11, 19);
  return left > 0
    ? `The game starts in ${formatClock(left)} (at ${when} UTC). Nobody can act before.`
    : "The game is starting…";
}

/** The time control in words: "60 s per turn", "10 min + 5 s per turn", "no time limit". */
export function describeTimeControl(tc) {
  if (!tc || tc.kind === "none") return "no time limit";
  const setup = tc.setup_seconds ? ` (setup ${span(tc.setup_seconds)})` : "";
  if (tc.kind === "per_turn") return `${span(tc.seconds)} per turn${setup}`;
  if (tc.kind === "clock") return `${span(tc.initial_seconds)} clock` + (tc.increment_seconds ? ` + ${span(tc.increment_seconds)} per turn` : "") + setup;
  return tc.kind;
}

/** 45 -> "45 s", 600 -> "10 min", 90 -> "1 min 30 s", 7200 -> "2 h". */
function span(seconds) {
  const s = Math.round(Number(seconds) || 0);
  if (s < 60) return `${s} s`;
  const h_ = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return [h_ ? `${h_} h` : "", m ? `${m} min` : "", rest ? `${rest} s` : ""].filter(Boolean).join(" ");
}

/** Seconds as a clock face: 8.2 -> "0:09", 75 -> "1:15", 3725 -> "1:02:05" (whole
 * seconds rounded up, so a clock shows 0:00 only when the time is really out). */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(Number(seconds) - 1e-6) || 0);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/**
 * Every seat's clock of one view, able to say the time left at any moment.
 *
 * `receivedAt` is when the view arrived (milliseconds of the server's time, as
 * `serverNow()` reads it); it is used only when a view has running clocks but no
 * deadline (not expected): the clocks then count down from the arrival.
 */
export class ClockSet {
  constructor(view, receivedAt, { live = true } = {}) {
    this.live = live && !["finished", "cancelled"].includes(view.status);
    this.byseat = new Map((view.clocks || []).map((c) => [c.seat, c]));
    const running = (view.clocks || []).filter((c) => c.running);
    const deadline = view.deadline ? Date.parse(view.deadline) : NaN;
    if (running.length && Number.isFinite(deadline)) {
      this.versionAt = deadline - Math.min(...running.map((c) => c.remaining_seconds)) * 1000;
    } else {
      this.versionAt = receivedAt;
    }
  }

  /** Whether the seat's clock is counting down on this page. */
  running(seat) {
    const c = this.byseat.get(seat);
    return Boolean(this.live && c && c.running);
  }

  /** Seconds left for `seat` at `now` (server milliseconds); null without a clock. */
  remaining(seat, now) {
    const c = this.byseat.get(seat);
    if (!c) return null;
    if (!this.running(seat)) return c.remaining_seconds;
    const left = (this.versionAt + c.remaining_seconds * 1000 - now) / 1000;
    return Math.max(0, Math.min(c.remaining_seconds, left));
  }

  /** The running seats whose time is out at `now`. */
  expired(now) {
    return [...this.byseat.keys()].filter((seat) => this.running(seat) && this.remaining(seat, now) <= 0);
  }
}

/** How a seat stands: "in", "resigned" or "timed_out" (older views: "in"). */
export function standingOf(player) {
  return (player && player.standing) || "in";
}

const STANDING_WORDS = { resigned: "resigned", timed_out: "timed out" };

/** A badge for a seat that left the game, or null for a seat still in. */
export function standingBadge(player) {
  const standing = standingOf(player);
  if (standing === "in") return null;
  return h("span", { class: `standing standing-${standing}`, "data-standing": standing }, STANDING_WORDS[standing] || standing.replace(/_/g, " "));
}

/** The class a table row of a seat gets for its standing ("" for a seat still in). */
export function standingClass(player) {
  return standingOf(player) === "in" ? "" : " out";
}

/** The cell of one seat's clock in the players table (filled and kept ticking by the page). */
export function clockCell(player) {
  if (standingOf(player) !== "in") return h("td", { class: "num clock-cell" }, h("span", { class: "clock off" }, "–"));
  return h(
    "td",
    { class: "num clock-cell" },
    h("span", { class: "clock", "data-seat": player.seat }),
    h("span", { class: "time-warning", "data-seat": player.seat, hidden: true }),
  );
}
