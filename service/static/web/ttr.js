// Ticket to Ride: San Francisco at the table: the map, the players, the seat's
// cards and tickets, and the actions its legal-action list offers.

import { h, labelCells, plural, titleCase } from "./dom.js";
import { cardColor, souvenirShort } from "./palette.js";
import { routeLabel, ttrMap } from "./ttr-map.js";
import { clockCell, showsClocks, standingBadge, standingClass } from "./clocks.js";

function locName(board, id) {
  const loc = board.locations.find((l) => l.id === id);
  return loc ? loc.name : titleCase(id);
}

function cardChip(color, count = null) {
  const c = cardColor(color);
  return h(
    "span",
    { class: `chip card-${color}`, title: color },
    h("span", { class: "swatch", "data-color": color }, c.letter || "·"),
    h("span", { class: "chip-text" }, count === null ? color : `${count} ${color}`),
  );
}

function seatSwatch(player) {
  return h("span", { class: `swatch seat seat-${player.color}`, "data-color": player.color, title: `${player.color} cars` }, String(player.seat + 1));
}

/** Whether the player's own routes join `from` and `to` (shown only; the server scores). */
function connected(board, routeIds, from, to) {
  const routes = new Map(board.routes.map((r) => [r.id, r]));
  const next = new Map();
  for (const id of routeIds) {
    const r = routes.get(id);
    if (!r) continue;
    if (!next.has(r.from)) next.set(r.from, []);
    if (!next.has(r.to)) next.set(r.to, []);
    next.get(r.from).push(r.to);
    next.get(r.to).push(r.from);
  }
  const seen = new Set([from]);
  const todo = [from];
  while (todo.length) {
    const at = todo.pop();
    if (at === to) return true;
    for (const n of next.get(at) || []) {
      if (!seen.has(n)) {
        seen.add(n);
        todo.push(n);
      }
    }
  }
  return false;
}

function paymentText(action) {
  const parts = Object.entries(action.cards)
    .filter(([, n]) => n > 0)
    .map(([color, n]) => `${n} ${color}`);
  return `Pay ${parts.join(" + ")}` + (action.souvenir ? `, take the ${titleCase(action.souvenir)} souvenir` : "");
}

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export class TtrTable {
  constructor(page) {
    this.page = page;
    this.reset();
  }

  /** The seq of the event that ends the opening deal: the tickets dealt (before it the face-up row is
   * still being turned up, and nobody acts). */
  dealtBy(events) {
    const dealt = events.find((e) => e.type === "tickets_dealt");
    return dealt ? dealt.seq : 1;
  }

  /** Forget choices in progress (the game moved on). */
  reset() {
    this.selectedRoute = null;
    this.keep = null; // ticket ids ticked to keep
    this.placeSymbol = null;
    this.highlight = new Set();
  }

  legalOf(type) {
    const legal = this.page.legal || [];
    return legal.filter((a) => a.type === type);
  }

  /** The listed souvenir placements; keeps the chosen symbol one of theirs. */
  placeChoices() {
    const places = this.legalOf("place_souvenir_stack");
    const symbols = [...new Set(places.map((a) => a.symbol))];
    if (symbols.length && !symbols.includes(this.placeSymbol)) this.placeSymbol = symbols[0];
    return places;
  }

  // ------------------------------------------------------------------ board

  board(view) {
    const live = !this.page.replay && this.page.legal;
    const claimable = new Map();
    if (live) {
      for (const a of this.legalOf("claim_route")) {
        if (!claimable.has(a.route)) claimable.set(a.route, []);
        claimable.get(a.route).push(a);
      }
    }
    const places = live ? this.placeChoices() : [];
    const placeable = new Set(places.filter((a) => a.symbol === this.placeSymbol).map((a) => a.location));
    return ttrMap(this.page.board, view, {
      claimable,
      selectedRoute: this.selectedRoute,
      onRoute: (id) => {
        this.selectedRoute = id;
        this.page.render();
        const first = this.page.root.querySelector(".claim-options button");
        if (first) first.focus();
      },
      placeable,
      placeSymbol: this.placeSymbol,
      onLocation: (loc) => {
        const action = places.find((a) => a.symbol === this.placeSymbol && a.location === loc);
        if (action) this.page.act(action);
      },
      highlight: this.highlight,
    });
  }

  /** What the letters and marks on the map stand for. */
  legend() {
    const colors = ["blue", "green", "black", "purple", "red", "orange"].map((c) =>
      h("li", {}, h("span", { class: "swatch", "data-color": c }, cardColor(c).letter), ` ${c}`),
    );
    return h(
      "ul",
      { class: "legend", "aria-label": "Map legend" },
      colors,
      h("li", {}, h("span", { class: "swatch", "data-color": "gray" }, " "), " gray: any one colour"),
      h("li", {}, h("span", { class: "swatch", "data-color": "ferry" }, "~"), " ferry space: a ferry card"),
      h("li", {}, h("span", { class: "swatch seat seat-white" }, "2"), " claimed: the seat's cars and number"),
      h("li", { class: "names-hint" }, "Tap or point at a location to see its name."),
    );
  }

  // ------------------------------------------------------------------ side panels

  panels(view) {
    const out = [this.playersPanel(view), this.supplyPanel(view)];
    if (view.me) out.push(this.handPanel(view));
    if (!this.page.replay && this.page.canAct) out.push(...this.actionPanels(view));
    return out.filter(Boolean);
  }

  playersPanel(view) {
    const clocks = showsClocks(view);
    // "Route points" while playing; once over, the final table's "Total" beside it (the same number as there)
    const totals = view.result ? new Map((view.result.players || []).map((r) => [r.seat, r.total])) : null;
    const rows = view.players.map((p) => {
      const active = view.active_seats.includes(p.seat);
      return h(
        "tr",
        { class: (active ? "active" : "") + standingClass(p), "data-seat": p.seat },
        h(
          "th",
          { scope: "row" },
          seatSwatch(p),
          " ",
          h("span", { class: "name" }, p.name),
          p.seat === this.page.mySeat ? h("span", { class: "you" }, " (you)") : null,
          active ? h("span", { class: "to-act", title: "to act" }, " ▶") : null,
          standingBadge(p),
        ),
        clocks ? clockCell(p) : null,
        h("td", { class: "num score" }, String(p.score)),
        totals ? h("td", { class: "num total" }, String(totals.get(p.seat) ?? "")) : null,
        h("td", { class: "num" }, String(p.cars)),
        h("td", { class: "num" }, String(p.hand_count)),
        h("td", { class: "num" }, String(p.ticket_count) + (p.pending_ticket_count ? ` (+${p.pending_ticket_count})` : "")),
        h("td", {}, p.souvenirs.length ? p.souvenirs.map((sym) => h("span", { class: "souvenir", title: titleCase(sym) }, souvenirShort(sym))) : "–"),
      );
    });
    return h(
      "section",
      { class: "card players", "aria-labelledby": "players-title" },
      h("h2", { id: "players-title" }, "Players"),
      h(
        "div",
        { class: "table-scroll" },
        labelCells(h(
          "table",
          { class: "players-table" },
          h("thead", {}, h("tr", {}, ["Player", clocks ? "Time" : null, "Route points", totals ? "Total" : null, "Cars", "Cards", "Tickets", "Souvenirs"].filter(Boolean).map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows),
        )),
      ),
      view.final_turns_left !== null && view.final_turns_left !== undefined && view.status === "last_round"
        ? h("p", { class: "hint" }, `Last round: ${plural(view.final_turns_left, "turn")} left.`)
        : null,
    );
  }

  supplyPanel(view) {
    const draws = !this.page.replay && this.page.canAct ? this.legalOf("draw_card") : [];
    const busy = this.page.busy;
    const faceUp = view.face_up.map((color, slot) => {
      if (color === null || color === undefined) {
        // no card in this slot (being dealt, or deck and discards both empty): an empty place, not a card
        return h(
          "div",
          { class: "card-button empty-slot", "data-slot": slot, role: "img", "aria-label": `Face-up slot ${slot + 1}: empty` },
          h("span", { class: "swatch", "data-color": "none" }),
          h("span", {}, "empty"),
        );
      }
      const action = draws.find((a) => a.source === "face_up" && a.slot === slot);
      return h(
        "button",
        {
          type: "button",
          class: `card-button card-${color}`,
          disabled: !action || busy,
          "data-key": `faceup-${slot}`,
          "data-slot": slot,
          "aria-label": `Take the face-up ${color} card (slot ${slot + 1})`,
          onclick: () => action && this.page.act(action),
        },
        h("span", { class: "swatch", "data-color": color }, cardColor(color).letter || "·"),
        h("span", {}, color),
      );
    });
    const deckAction = draws.find((a) => a.source === "deck");
    const deck = h(
      "button",
      {
        type: "button",
        class: "card-button deck",
        disabled: !deckAction || busy,
        "data-key": "deck",
        "aria-label": `Draw the top card of the deck (${view.deck_count} left)`,
        onclick: () => deckAction && this.page.act(deckAction),
      },
      h("span", { class: "swatch", "data-color": "deck" }, "?"),
      h("span", {}, `deck (${view.deck_count})`),
    );
    return h(
      "section",
      { class: "card supply", "aria-labelledby": "supply-title" },
      h("h2", { id: "supply-title" }, "Transport cards"),
      h("div", { class: "face-up", role: "group", "aria-label": "Face-up cards and the deck" }, faceUp, deck),
      h("p", { class: "hint" }, `${plural(view.discard_count, "card")} discarded · ${plural(view.tickets_left, "ticket")} in the ticket deck`),
    );
  }

  handPanel(view) {
    const me = view.me;
    const mine = view.players[me.seat];
    const hand = Object.entries(me.hand)
      .filter(([, n]) => n > 0)
      .map(([color, n]) => cardChip(color, n));
    const tickets = me.tickets.map((t) => {
      const done = t.completed !== undefined ? t.completed : connected(this.page.board, mine.routes || [], t.from, t.to);
      return h(
        "li",
        {
          class: done ? "ticket done" : "ticket",
          tabindex: "0",
          "data-key": `ticket-${t.id}`,
          onmouseenter: () => this.showTicket(t),
          onfocus: () => this.showTicket(t),
          onmouseleave: () => this.showTicket(null),
          onblur: () => this.showTicket(null),
        },
        h("span", { class: "ticket-id" }, t.id),
        ` ${locName(this.page.board, t.from)} – ${locName(this.page.board, t.to)} `,
        h("span", { class: "points" }, `${t.points}`),
        done ? h("span", { class: "done-mark" }, " ✓ connected") : null,
      );
    });
    return h(
      "section",
      { class: "card hand", "aria-labelledby": "hand-title" },
      h("h2", { id: "hand-title" }, "Your cards and tickets"),
      h("div", { class: "chips" }, hand.length ? hand : h("span", { class: "hint" }, "No cards.")),
      h("ul", { class: "tickets" }, tickets.length ? tickets : h("li", { class: "hint" }, "No tickets kept yet.")),
    );
  }

  showTicket(ticket) {
    const next = ticket ? new Set([ticket.from, ticket.to]) : new Set();
    if (sameSet([...next], [...this.highlight])) return;
    this.highlight = next;
    for (const el of this.page.root.querySelectorAll(".ttr-map .location")) {
      el.classList.toggle("highlight", next.has(el.getAttribute("data-location")));
    }
  }

  actionPanels(view) {
    const out = [];
    const keeps = this.legalOf("keep_tickets");
    if (keeps.length) out.push(this.keepPanel(view, keeps));
    const places = this.placeChoices();
    if (places.length) out.push(this.placePanel(places));
    const claims = this.legalOf("claim_route");
    const tickets = this.legalOf("draw_tickets");
    if (claims.length || tickets.length) out.push(this.turnPanel(claims, tickets));
    else if (this.legalOf("draw_card").length && !keeps.length && !places.length) {
      out.push(h("section", { class: "card action" }, h("h2", {}, "Your turn"), h("p", {}, "Draw your second card: a face-up card or the deck.")));
    }
    if (!this.page.legal) out.push(h("p", { class: "hint card" }, "Loading your choices…"));
    return out;
  }

  keepPanel(view, keeps) {
    const pending = view.me.pending_tickets;
    if (this.keep === null) this.keep = pending.map((t) => t.id);
    const chosen = keeps.find((a) => sameSet(a.tickets, this.keep));
    const boxes = pending.map((t) => {
      const id = `keep-${t.id}`;
      const box = h("input", { type: "checkbox", id, "data-key": id, checked: this.keep.includes(t.id) });
      box.addEventListener("change", () => {
        this.keep = box.checked ? [...this.keep, t.id] : this.keep.filter((x) => x !== t.id);
        this.page.render();
      });
      return h(
        "li",
        { onmouseenter: () => this.showTicket(t), onmouseleave: () => this.showTicket(null) },
        box,
        h("label", { for: id }, h("span", { class: "ticket-id" }, t.id), ` ${locName(this.page.board, t.from)} – ${locName(this.page.board, t.to)} `, h("span", { class: "points" }, String(t.points))),
      );
    });
    const min = Math.min(...keeps.map((a) => a.tickets.length));
    return h(
      "section",
      { class: "card action keep", "aria-labelledby": "keep-title" },
      h("h2", { id: "keep-title" }, "Choose your tickets"),
      h("p", { class: "hint" }, `Keep at least ${min}. A ticket you keep scores its points if your routes join its two places, and costs them if not.`),
      h("ul", { class: "choices" }, boxes),
      h(
        "button",
        { type: "button", class: "primary", "data-key": "keep-submit", disabled: !chosen || this.page.busy, onclick: () => chosen && this.page.act(chosen) },
        chosen ? `Keep ${plural(chosen.tickets.length, "ticket")}` : "Choose which tickets to keep",
      ),
    );
  }

  placePanel(places) {
    const symbols = [...new Set(places.map((a) => a.symbol))];
    const locations = places.filter((a) => a.symbol === this.placeSymbol);
    const symbolSelect = h(
      "select",
      { id: "place-symbol", "data-key": "place-symbol" },
      symbols.map((sym) => h("option", { value: sym, selected: sym === this.placeSymbol }, titleCase(sym))),
    );
    symbolSelect.addEventListener("change", () => {
      this.placeSymbol = symbolSelect.value;
      this.page.render();
    });
    const where = h(
      "select",
      { id: "place-location", "data-key": "place-location" },
      locations.map((a) => h("option", { value: a.location }, locName(this.page.board, a.location))),
    );
    return h(
      "section",
      { class: "card action place", "aria-labelledby": "place-title" },
      h("h2", { id: "place-title" }, "Place a souvenir stack"),
      h("p", { class: "hint" }, "Click a highlighted location on the map, or choose one here."),
      h("div", { class: "row" }, h("label", { for: "place-symbol" }, "Stack "), symbolSelect, h("label", { for: "place-location" }, " on "), where),
      h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-key": "place-submit",
          disabled: this.page.busy,
          onclick: () => {
            const action = locations.find((a) => a.location === where.value);
            if (action) this.page.act(action);
          },
        },
        "Place the stack",
      ),
    );
  }

  turnPanel(claims, tickets) {
    const locs = new Map(this.page.board.locations.map((l) => [l.id, l]));
    const routes = new Map(this.page.board.routes.map((r) => [r.id, r]));
    const claimable = [...new Set(claims.map((a) => a.route))];
    if (this.selectedRoute && !claimable.includes(this.selectedRoute)) this.selectedRoute = null;
    const select = h(
      "select",
      { id: "claim-route", "data-key": "claim-route", "aria-label": "Route to claim" },
      h("option", { value: "" }, claimable.length ? `Choose a route (${claimable.length} you can claim)` : "No route can be claimed"),
      claimable.map((id) => h("option", { value: id, selected: id === this.selectedRoute }, routeLabel(routes.get(id), locs))),
    );
    select.addEventListener("change", () => {
      this.selectedRoute = select.value || null;
      this.page.render();
    });
    const options = this.selectedRoute
      ? claims
          .filter((a) => a.route === this.selectedRoute)
          .map((a, i) =>
            h("button", { type: "button", class: "primary small", "data-key": `pay-${i}`, disabled: this.page.busy, onclick: () => this.page.act(a) }, paymentText(a)),
          )
      : [];
    const drawTickets = tickets[0];
    return h(
      "section",
      { class: "card action turn", "aria-labelledby": "turn-title" },
      h("h2", { id: "turn-title" }, "Your turn"),
      h("p", { class: "hint" }, "Draw two cards above, claim a route (click it on the map), or draw tickets."),
      claimable.length ? h("div", { class: "row" }, select) : null,
      this.selectedRoute
        ? h("div", { class: "claim-options", role: "group", "aria-label": "How to pay" }, h("p", {}, h("strong", {}, routeLabel(routes.get(this.selectedRoute), locs))), options)
        : null,
      drawTickets
        ? h("button", { type: "button", class: "secondary", "data-key": "draw-tickets", disabled: this.page.busy, onclick: () => this.page.act(drawTickets) }, "Draw destination tickets")
        : null,
    );
  }

  // ------------------------------------------------------------------ the end

  ticketTitle(player, ticket) {
    const info = (player.tickets || []).find((x) => x.id === ticket.id);
    const where = info ? `${locName(this.page.board, info.from)} – ${locName(this.page.board, info.to)}: ` : "";
    return where + (ticket.completed ? "completed" : "not completed");
  }

  result(view) {
    const r = view.result;
    const byseat = new Map((r.players || []).map((p) => [p.seat, p]));
    const rows = view.players.flatMap((p) => {
      const s = byseat.get(p.seat) || {};
      const won = r.winners.includes(p.seat);
      const tickets = (s.tickets || []).map((t) =>
        h(
          "span",
          { class: t.completed ? "tk done" : "tk failed", title: this.ticketTitle(p, t) },
          `${t.id} ${t.points > 0 ? "+" : ""}${t.points}${t.completed ? " ✓" : " ✗"}`,
        ),
      );
      return [
        h(
          "tr",
          { class: (won ? "winner" : "") + standingClass(p), "data-seat": p.seat },
          h("th", { scope: "row" }, seatSwatch(p), " ", h("span", { class: "name" }, p.name), won ? h("span", { class: "crown" }, " ★ winner") : null, standingBadge(p)),
          h("td", { class: "num" }, String(s.route_points ?? p.score)),
          h("td", { class: "num" }, String(s.ticket_points ?? ""), h("span", { class: "hint sub" }, ` ${s.completed_tickets ?? 0}/${(s.tickets || []).length}`)),
          h("td", { class: "num" }, String(s.souvenir_points ?? "")),
          h("td", { class: "num total" }, String(s.total ?? "")),
        ),
        tickets.length ? h("tr", { class: (won ? "winner tickets-row" : "tickets-row") + standingClass(p) }, h("td", { colspan: "5" }, tickets)) : null,
      ];
    });
    return h(
      "section",
      { class: "card result", "aria-labelledby": "result-title" },
      h("h2", { id: "result-title" }, "Final score"),
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "score-table" },
          h("thead", {}, h("tr", {}, ["Player", "Routes", "Tickets (done)", "Souvenirs", "Total"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows),
        ),
      ),
      r.reason ? h("p", { class: "hint" }, `The game ended: ${String(r.reason).replace(/_/g, " ")}.`) : null,
    );
  }
}
