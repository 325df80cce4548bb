// Events in words, and the event list shown beside the board.

import { h, plural, titleCase } from "./dom.js";

function who(ctx, seat) {
  if (seat === null || seat === undefined) return "The game";
  return ctx.names[seat] ?? `Seat ${seat + 1}`;
}

function place(ctx, id) {
  const loc = ctx.board && ctx.board.locations ? ctx.board.locations.find((l) => l.id === id) : null;
  return loc ? loc.name : titleCase(id);
}

function routeName(ctx, id) {
  const route = ctx.board && ctx.board.routes ? ctx.board.routes.find((r) => r.id === id) : null;
  return route ? `${place(ctx, route.from)} – ${place(ctx, route.to)}` : id;
}

function cards(dict) {
  return Object.entries(dict || {})
    .filter(([, n]) => n > 0)
    .map(([color, n]) => `${n} ${color}`)
    .join(" + ");
}

function square(p) {
  return `row ${p.row}, column ${p.col}`;
}

// Time controls and forfeits: the same in both games.
const FORFEITS = {
  seat_resigned: (e, c) => `${who(c, e.payload.seat)} resigned and is out of the game`,
  seat_timed_out: (e, c) => `${who(c, e.payload.seat)} ran out of time and is out of the game`,
  game_cancelled: () => "The host cancelled the game: no result",
};

const TTR = {
  ...FORFEITS,
  game_set_up: (e, c) => `Game set up for ${e.payload.players.join(", ")}`,
  cards_dealt: () => "Two transport cards dealt to each player",
  tickets_dealt: () => "Two destination tickets dealt to each player",
  face_up_refilled: (e) => `Face-up slot ${e.payload.slot + 1} turned up: ${e.payload.card}`,
  face_up_reset: () => "Three ferries face up: the row is discarded and turned up again",
  deck_rebuilt: (e) => `The discards are shuffled into a new deck (${plural(e.payload.count, "card")})`,
  souvenir_stack_placed: (e, c) =>
    `${who(c, e.payload.seat)} placed the ${titleCase(e.payload.symbol)} stack (${e.payload.count}) on ${place(c, e.payload.location)}`,
  tickets_kept: (e, c) =>
    `${who(c, e.payload.seat)} kept ${plural(e.payload.kept_count, "ticket")}` +
    (e.payload.kept ? ` (${e.payload.kept.join(", ")})` : "") +
    (e.payload.returned_count ? `, returned ${e.payload.returned_count}` : ""),
  play_started: (e, c) => `Setup done: ${who(c, e.payload.seat)} plays first`,
  card_drawn: (e, c) => {
    const what = e.payload.card ? e.payload.card : "a card";
    const from = e.payload.source === "deck" ? "the deck" : `face-up slot ${e.payload.slot + 1}`;
    return `${who(c, e.payload.seat)} drew ${what} from ${from}`;
  },
  route_claimed: (e, c) =>
    `${who(c, e.payload.seat)} claimed ${routeName(c, e.payload.route)} with ${cards(e.payload.cards)} ` +
    `(+${plural(e.payload.points, "point")})` +
    (e.payload.souvenir ? ` and took the ${titleCase(e.payload.souvenir)} souvenir` : ""),
  tickets_drawn: (e, c) => `${who(c, e.payload.seat)} drew ${plural(e.payload.count, "ticket")}`,
  turn_ended: (e, c) => `${who(c, e.payload.seat)}'s turn ends`,
  turn_passed: (e, c) => `${who(c, e.payload.seat)} cannot act and passes`,
  last_round_started: (e, c) =>
    `${who(c, e.payload.seat)} has ${plural(e.payload.cars, "car")} left: everybody plays one last turn`,
  game_ended: (e, c) => `Game over${ended(e)}. ${winners(c, e.payload.winners)}`,
};

const CABLE_CAR = {
  ...FORFEITS,
  game_set_up: (e) => `Game set up for ${e.payload.players.join(", ")}; ${plural(e.payload.pile_count, "tile")} in the pile`,
  tiles_laid: (e, c) =>
    `${who(c, e.payload.seat)} laid ` +
    e.payload.placements
      .map(
        (p) =>
          `${titleCase(p.tile)} at ${square(p)}` +
          (p.replaced ? ` (exchanging a ${titleCase(p.replaced.tile)})` : "") +
          (p.stops && p.stops.length ? ` — stop ${p.stops.join(", ")}` : ""),
      )
      .join(" and "),
  tiles_drawn: (e, c) =>
    `${who(c, e.payload.seat)} drew ${plural(e.payload.tiles.length + (e.payload.from_riders || []).length, "tile")}` +
    (e.payload.from_riders && e.payload.from_riders.length ? " (some from riders' hands)" : ""),
  tile_drawn: (e, c) =>
    `${who(c, e.payload.seat)} drew a ${titleCase(e.payload.tile)} ` +
    (e.payload.source === "pile" ? "from the pile" : `from ${who(c, e.payload.rider)}'s open hand`),
  turn_passed: (e, c) => `${who(c, e.payload.seat)} passes (${String(e.payload.reason).replace(/_/g, " ")})`,
  turn_ended: (e, c) => `${who(c, e.payload.seat)}'s turn ends; ${who(c, e.payload.next_seat)} is next`,
  ride_started: (e, c) =>
    `${who(c, e.payload.seat)} starts the inaugural ride on line ${e.payload.line}: ${e.payload.origin} → ${e.payload.destination} ` +
    `through stops ${e.payload.route.join(", ")}`,
  die_rolled: (e, c) =>
    `${who(c, e.payload.seat)} rolled ${e.payload.face === "H" ? "H (to the next stop)" : e.payload.face}: ` +
    `space ${e.payload.start} → ${e.payload.end}`,
  game_ended: (e, c) => `Game over${ended(e)}. ${winners(c, e.payload.winners)}`,
};

function ended(e) {
  if (e.payload.reason === "stalled") return ": every seat passed in a row, nothing can change any more (stalled)";
  return e.payload.reason === "forfeit" ? " (only one player is left in)" : "";
}

function winners(ctx, seats) {
  if (!seats || !seats.length) return "Nobody wins.";
  const names = seats.map((s) => who(ctx, s));
  return names.length === 1 ? `${names[0]} wins.` : `${names.join(" and ")} share the victory.`;
}

// Since ttr-sf/3 and cable-car/3 the event a move ends with says when it ended the turn too
// (`ends_turn`), instead of a `turn_ended` event of its own.
function turnEnds(e, c) {
  const seat = e.payload.seat;
  return seat === null || seat === undefined ? "the turn ends" : `${who(c, seat)}'s turn ends`;
}

/** One event as a sentence. */
export function describeEvent(event, ctx) {
  const table = ctx.type === "cable-car" ? CABLE_CAR : TTR;
  const describe = table[event.type];
  try {
    const text = describe ? describe(event, ctx) : titleCase(event.type);
    return event.payload && event.payload.ends_turn === true ? `${text}; ${turnEnds(event, ctx)}` : text;
  } catch {
    return titleCase(event.type);
  }
}

/** The event list (newest last); `current` marks one event (the replay position). */
export function eventList(events, ctx, { current = null, onPick = null } = {}) {
  const items = events.map((e) => {
    const text = describeEvent(e, ctx);
    const body = onPick
      ? h("button", { type: "button", class: "event-pick", "data-key": `ev-${e.seq}`, onclick: () => onPick(e.seq) }, text)
      : text;
    return h(
      "li",
      { class: e.seq === current ? "event current" : "event", "data-seq": e.seq, "aria-current": e.seq === current ? "step" : null },
      h("span", { class: "seq" }, String(e.seq)),
      h("span", { class: "what" }, body),
    );
  });
  return h("ol", { class: "events", "aria-label": "Events" }, items);
}
