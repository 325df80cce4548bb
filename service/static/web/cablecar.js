// San Francisco cable cars at the table: the board, the players' open hands,
// the seat's line and route, laying two tiles (chosen among the listed legal
// pairs, with a preview), drawing from a rider's open hand, starting the ride
// and rolling the die.

import { h, labelCells, plural, swap, titleCase } from "./dom.js";
import { cableCarBoard, squareCell, squaresContext, tileIcon } from "./cablecar-board.js";
import { TRAM_COLORS } from "./palette.js";
import { squareKey } from "./choices.js";
import { clockCell, showsClocks, standingBadge, standingClass, standingOf } from "./clocks.js";

const DIE_WORDS = { H: "H — on to the next stop" };

/** Whether a ride has reached its destination (its tram on the last space). */
function arrived(ride) {
  return ride.position >= ride.length;
}

function turned(rotation) {
  return rotation ? `turned ${rotation * 90}°` : "not turned";
}

export class CableCarTable {
  constructor(page) {
    this.page = page;
    this.tiles = new Map(page.board.tiles.map((t) => [t.id, t]));
    this.reset();
  }

  /** The seq of the event that ends the opening deal: game_set_up holds it whole. */
  dealtBy() {
    return 1;
  }

  /** Forget the tiles being chosen (the game moved on). */
  reset() {
    this.first = null;
    this.second = null;
    this.openSquare = null;
    this.searching = null; // the square whose choices are being fetched
    this.drawn = null; // what the board was last drawn with
  }

  line(id) {
    return this.page.board.lines.find((l) => l.id === id) || null;
  }

  stopName(letter) {
    const stop = this.page.board.stops.find((st) => st.letter === letter);
    return stop ? stop.name : letter;
  }

  describe(p, view) {
    const occupied = (view.tiles || []).find((t) => t.row === p.row && t.col === p.col);
    return `${titleCase(p.tile)} at row ${p.row}, column ${p.col}, ${turned(p.rotation)}` + (occupied ? ` (exchanges the ${titleCase(occupied.tile)})` : "");
  }

  // ------------------------------------------------------------------ board

  board(view) {
    const chooser = this.liveChooser();
    this.drawn = this.boardUi(view, chooser);
    return cableCarBoard(this.page.board, view, this.drawn);
  }

  /** The chooser while this seat is choosing tiles, else null. */
  liveChooser() {
    return !this.page.replay && this.page.canAct ? this.page.chooser : null;
  }

  boardUi(view, chooser) {
    const preview = [];
    if (chooser && this.first !== null) preview.push({ placement: chooser.placement(this.first), order: 1 });
    if (chooser && this.second !== null) preview.push({ placement: chooser.placement(this.second), order: 2 });
    return {
      me: view.me,
      selectable: chooser ? this.selectableSquares(chooser) : null,
      maybe: chooser ? this.maybeSquares(chooser) : null,
      openSquare: this.openSquare,
      preview,
      onSquare: (row, col) => this.openAt(row, col),
    };
  }

  /** Squares with listed choices at this step ("r,c" -> label), or null. */
  selectableSquares(chooser) {
    if (this.second !== null || (!chooser.canLay && chooser.complete)) return null;
    const step = this.first === null ? "first" : "second";
    const label = (key, n) => {
      const [row, col] = key.split(",");
      return `Row ${row}, column ${col}: ${plural(n, "way")} to lay your ${step} tile here`;
    };
    const out = new Map([...this.currentSquares(chooser)].map(([key, ids]) => [key, label(key, ids.length)]));
    // squares the pages have not reached, known to hold choices (asked one by one)
    if (this.first === null) for (const [key, total] of chooser.knownSquares()) out.set(key, label(key, total));
    return out;
  }

  /** Squares without choices yet that later pages may still bring (first tile only). */
  maybeSquares(chooser) {
    if (this.first !== null || chooser.complete) return null;
    const listed = chooser.firstSquares();
    const stops = new Set(this.page.board.stops.map((st) => `${st.row},${st.col}`));
    const out = new Map();
    for (let row = 1; row <= this.page.board.grid.rows; row++) {
      for (let col = 1; col <= this.page.board.grid.cols; col++) {
        const key = squareKey(row, col);
        if (listed.has(key) || stops.has(key) || !chooser.squareMayGrow(key) || chooser.squareTotals.has(key)) continue;
        out.set(key, `Row ${row}, column ${col}: look for ways to lay your first tile here`);
      }
    }
    return out;
  }

  currentSquares(chooser) {
    return this.first === null ? chooser.firstSquares() : chooser.secondSquares(this.first);
  }

  /** Open a square's choices; fetch further pages first when they may hold more of them. */
  async openAt(row, col) {
    const key = squareKey(row, col);
    this.openSquare = key;
    const chooser = this.page.chooser;
    const searching = chooser && this.first === null && chooser.squareMayGrow(key);
    this.searching = searching ? key : null;
    this.page.render();
    const focusOption = () => {
      const option = this.page.root.querySelector(".placement-options button.option");
      if (option) option.focus();
      return Boolean(option);
    };
    const focused = focusOption();
    if (searching) {
      await this.page.loadSquare(chooser, key);
      if (this.page.chooser !== chooser || this.openSquare !== key) return;
      this.searching = null;
      this.grow();
      if (!focused) focusOption();
    }
  }

  /** Pick a tile for the open square; after the first, make sure all its partners are loaded. */
  async pick(id) {
    const chooser = this.page.chooser;
    if (this.first === null) this.first = id;
    else this.second = id;
    this.openSquare = null;
    this.page.render();
    if (this.second === null && chooser.firstMayGrow(id)) {
      await this.page.requestChoices((c) => !c.firstMayGrow(id));
      if (this.page.chooser !== chooser || this.first !== id) return;
      this.page.render();
    }
    const next = this.page.root.querySelector('[data-key="lay"], .cc-board .square.selectable:not(.maybe)');
    if (next) next.focus();
  }

  /** Another page of choices arrived: update in place (the progress, the squares whose
   * state changed, the open square's tiles) rather than redraw everything under the pointer. */
  grow() {
    const chooser = this.liveChooser();
    const root = this.page.root;
    const row = root.querySelector(".progress-row");
    if (!chooser || !row || !this.drawn || !root.querySelector(".cc-board")) {
      this.page.render();
      return;
    }
    swap(row, this.progressRow(chooser));
    const before = this.drawn;
    const now = this.boardUi(this.page.shown, chooser);
    const ctx = squaresContext(this.page.board, this.page.shown, now);
    for (let r = 1; r <= this.page.board.grid.rows; r++) {
      for (let c = 1; c <= this.page.board.grid.cols; c++) {
        const key = squareKey(r, c);
        const was = (before.selectable && before.selectable.get(key)) || (before.maybe && before.maybe.get(key)) || null;
        const is = (now.selectable && now.selectable.get(key)) || (now.maybe && now.maybe.get(key)) || null;
        if (was === is) continue;
        const cell = root.querySelector(`.cc-board .square[data-square="${key}"]`);
        if (cell) swap(cell, squareCell(ctx, r, c));
      }
    }
    this.drawn = now;
    const options = root.querySelector(".placement-options");
    if (options && this.openSquare && this.second === null) {
      const ids = this.currentSquares(chooser).get(this.openSquare) || [];
      const state = `${ids.length}:${this.searching === this.openSquare}`;
      if (options.getAttribute("data-state") !== state) swap(options, this.optionsGroup(chooser, ids));
    }
  }

  /** The lines: colour, number and terminals (the loops carry the number too). */
  legend() {
    return h(
      "ul",
      { class: "legend", "aria-label": "Lines" },
      this.page.board.lines.map((line) =>
        h("li", {}, h("span", { class: "line-chip", "data-color": line.color }, line.id), ` ${line.terminals.map((t) => t.name).join(" – ")}`),
      ),
      h("li", {}, h("span", { class: "stop-chip" }, "A"), " stop; a small letter marks its tile"),
    );
  }

  // ------------------------------------------------------------------ side panels

  panels(view) {
    const out = [this.playersPanel(view)];
    if (view.players.some((p) => p.ride)) out.push(this.ridesPanel(view));
    if (view.me) out.push(this.mePanel(view));
    if (!this.page.replay && this.page.canAct) out.push(this.actionPanel(view));
    return out;
  }

  playersPanel(view) {
    const clocks = showsClocks(view);
    const rows = view.players.map((p) => {
      const active = view.active_seats.includes(p.seat);
      const line = p.line ? this.line(p.line) : null;
      let state = "laying track";
      if (p.ride) state = arrived(p.ride) ? `arrived at ${p.ride.to}` : `riding: space ${p.ride.position} of ${p.ride.length}`;
      if (standingOf(p) === "resigned") state = "resigned: out of the game";
      if (standingOf(p) === "timed_out") state = "timed out: out of the game";
      if (view.result && view.result.winners.includes(p.seat)) state = view.result.reason === "forfeit" ? "winner (last seat in)" : "arrived — winner";
      return h(
        "tr",
        { class: (active ? "active" : "") + standingClass(p), "data-seat": p.seat },
        h(
          "th",
          { scope: "row" },
          h("span", { class: "swatch tram-swatch", "data-seat": p.seat % TRAM_COLORS.length }, String(p.seat + 1)),
          " ",
          h("span", { class: "name" }, p.name),
          p.seat === this.page.mySeat ? h("span", { class: "you" }, " (you)") : null,
          active ? h("span", { class: "to-act", title: "to act" }, " ▶") : null,
          standingBadge(p),
        ),
        clocks ? clockCell(p) : null,
        h("td", { class: "hand-cell" }, p.hand.map((t) => h("span", { class: "hand-tile", title: titleCase(t) }, tileIcon(this.tiles.get(t), 0, 26)))),
        h("td", {}, state, p.last_roll ? h("span", { class: "roll" }, ` · rolled ${p.last_roll}`) : null),
        h("td", {}, line ? h("span", { class: "line-chip", "data-color": line.color }, `line ${line.id}`) : "secret"),
      );
    });
    return h(
      "section",
      { class: "card players", "aria-labelledby": "players-title" },
      h("h2", { id: "players-title" }, "Players ", h("span", { class: "hint" }, `${plural(view.pile_count, "tile")} in the pile`)),
      h(
        "div",
        { class: "table-scroll" },
        labelCells(h(
          "table",
          { class: "players-table" },
          h("thead", {}, h("tr", {}, ["Player", clocks ? "Time" : null, "Hand (open)", "Doing", "Line"].filter(Boolean).map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows),
        )),
      ),
    );
  }

  /** Every ride under way: the last roll and how far each tram has come. */
  ridesPanel(view) {
    const rows = view.players
      .filter((p) => p.ride)
      .map((p) => {
        const line = p.line ? this.line(p.line) : null;
        return h(
          "li",
          { class: "ride", "data-seat": p.seat },
          h("span", { class: "die", title: p.last_roll ? `last roll: ${p.last_roll}` : "no roll yet" }, p.last_roll || "–"),
          h(
            "div",
            { class: "ride-text" },
            h("strong", {}, p.name),
            line ? [" ", h("span", { class: "line-chip", "data-color": line.color }, `line ${line.id}`)] : null,
            ` ${p.ride.from} → ${p.ride.to}`,
            h("br"),
            h("progress", { max: String(p.ride.length), value: String(p.ride.position), "aria-label": `${p.name}'s tram: space ${p.ride.position} of ${p.ride.length}` }),
            h("span", { class: "hint" }, arrived(p.ride)
              ? ` arrived at ${p.ride.to}: the ride is over` + (p.last_roll ? ` · last roll ${p.last_roll}` : "")
              : ` space ${p.ride.position} of ${p.ride.length}` + (p.last_roll ? ` · rolled ${DIE_WORDS[p.last_roll] || p.last_roll}` : "")),
          ),
        );
      });
    return h("section", { class: "card rides", "aria-labelledby": "rides-title" }, h("h2", { id: "rides-title" }, "Inaugural rides"), h("ul", { class: "ride-list" }, rows));
  }

  mePanel(view) {
    const me = view.me;
    const line = this.line(me.line);
    const stops = me.route.map((letter) => {
      const sq = view.stops ? view.stops[letter] : null;
      return h(
        "li",
        { class: sq ? "stop-item placed" : "stop-item" },
        h("span", { class: "stop-chip" }, letter),
        ` ${this.stopName(letter)} `,
        h("span", { class: "hint" }, sq ? `(tile at row ${sq[0]}, column ${sq[1]})` : "(no tile yet)"),
      );
    });
    return h(
      "section",
      { class: "card me", "aria-labelledby": "me-title" },
      h("h2", { id: "me-title" }, "Your line and route"),
      h(
        "p",
        {},
        h("span", { class: "line-chip", "data-color": line ? line.color : "" }, `Line ${me.line}`),
        line ? ` (${line.color}): ` : " ",
        me.terminals.join(" ↔ "),
      ),
      h("p", { class: "hint" }, "Build one track between your two terminals that passes the tiles of these stops:"),
      h("ul", { class: "stops" }, stops),
      h("h3", {}, "Your hand"),
      h(
        "ul",
        { class: "my-hand" },
        view.players[me.seat].hand.map((t) => h("li", {}, tileIcon(this.tiles.get(t), 0, 40), h("span", {}, titleCase(t)))),
      ),
    );
  }

  actionPanel(view) {
    const chooser = this.page.chooser;
    const busy = this.page.busy;
    const parts = [h("h2", { id: "act-title" }, "Your turn")];
    if (!chooser) {
      parts.push(h("p", { class: "hint" }, "Loading your choices…"));
      return h("section", { class: "card action", "aria-labelledby": "act-title" }, parts);
    }
    const rolls = chooser.others.filter((a) => a.type === "roll");
    const rides = chooser.others.filter((a) => a.type === "start_ride");
    const draws = chooser.others.filter((a) => a.type === "draw_tile");
    if (draws.length) {
      parts.push(this.drawParts(view, draws, busy));
      return h("section", { class: "card action", "aria-labelledby": "act-title" }, parts);
    }
    if (rolls.length) {
      parts.push(h("button", { type: "button", class: "primary big", "data-key": "roll", disabled: busy, onclick: () => this.page.act(rolls[0]) }, "Roll the die"));
    }
    if (rides.length) {
      // cable-car/4: a complete network must ride (nothing else is listed); older games may lay on
      const due = chooser.complete && !chooser.canLay;
      parts.push(
        h("p", {}, due ? "Your network is complete: your inaugural ride is due. Start it from either terminal." : "Your network is complete: you may start the inaugural ride."),
        h(
          "div",
          { class: "row" },
          rides.map((a, i) => h("button", { type: "button", class: "primary", "data-key": `ride-${i}`, disabled: busy, onclick: () => this.page.act(a) }, `Start the ride from ${a.from}`)),
        ),
      );
    }
    if (chooser.canLay || !chooser.complete) parts.push(...this.layingParts(view, chooser));
    if (chooser.complete && !chooser.canLay && !rolls.length && !rides.length) parts.push(h("p", {}, "Nothing to do."));
    return h("section", { class: "card action", "aria-labelledby": "act-title" }, parts);
  }

  /** Drawing back up while a rider's open hand offers a choice: one button per listed draw. */
  drawParts(view, draws, busy) {
    const label = (a) => {
      if (a.source === "pile") return [h("span", {}, `Top of the pile (${plural(view.pile_count, "tile")} left)`)];
      const rider = view.players[a.rider];
      return [tileIcon(this.tiles.get(a.tile), 0, 34), h("span", {}, `${titleCase(a.tile)} from ${rider ? rider.name : `seat ${a.rider + 1}`}'s hand`)];
    };
    return h(
      "div",
      { class: "draw-choice" },
      h(
        "p",
        {},
        draws.some((a) => a.source === "pile")
          ? "Draw back up to 5 tiles, one at a time: from the pile, or any tile of a riding player's open hand."
          : "The pile is empty: draw back up to 5 tiles, one at a time, choosing any tile of a riding player's open hand.",
      ),
      h(
        "div",
        { class: "row" },
        draws.map((a, i) => h("button", { type: "button", class: a.source === "pile" ? "primary" : "option", "data-key": `draw-${i}`, disabled: busy, onclick: () => this.page.act(a) }, ...label(a))),
      ),
    );
  }

  progressRow(chooser) {
    const more = !chooser.complete && !this.page.pumping;
    return h(
      "div",
      { class: "progress-row" },
      h("progress", { max: String(chooser.total || 1), value: String(chooser.loaded), "aria-label": "Choices loaded" }),
      h(
        "span",
        { class: "hint" },
        chooser.complete
          ? `${chooser.total.toLocaleString()} ways to lay your tiles`
          : `${chooser.loaded.toLocaleString()} of ${chooser.total.toLocaleString()} ways loaded${this.page.pumping ? "…" : ""}`,
      ),
      more
        ? h("button", { type: "button", class: "small secondary", "data-key": "more-choices", onclick: () => this.page.moreChoices() }, "Load more")
        : null,
    );
  }

  /** The tiles that may go on the open square at this step. */
  optionsGroup(chooser, ids) {
    const [row, col] = this.openSquare.split(",");
    const searching = this.searching === this.openSquare;
    const occupied = (this.page.shown.tiles || []).find((t) => `${t.row},${t.col}` === this.openSquare);
    let note = occupied ? `: choose a tile to exchange the ${titleCase(occupied.tile)} for` : ": choose a tile";
    if (searching) note = ": looking for ways to lay a tile here…";
    else if (!ids.length) note = ": no tile can go here now";
    return h(
      "div",
      {
        class: "placement-options",
        role: "group",
        "aria-label": `Tiles for row ${row}, column ${col}`,
        "aria-busy": searching ? "true" : null,
        "data-state": `${ids.length}:${searching}`,
      },
      h("p", {}, h("strong", {}, `Row ${row}, column ${col}`), note),
      h(
        "ul",
        { class: "options" },
        ids.map((id) => {
          const p = chooser.placement(id);
          return h(
            "li",
            {},
            h(
              "button",
              { type: "button", class: "option", "data-key": `opt-${p.tile}-${p.rotation}`, "data-tile": p.tile, onclick: () => this.pick(id) },
              tileIcon(this.tiles.get(p.tile), p.rotation, 34),
              h("span", {}, `${titleCase(p.tile)}, ${turned(p.rotation)}`),
            ),
          );
        }),
      ),
    );
  }

  layingParts(view, chooser) {
    const out = [];
    const busy = this.page.busy;
    out.push(this.progressRow(chooser));
    const pick = (label, id, step) =>
      h(
        "li",
        {},
        h("span", { class: "order-chip" }, step),
        " ",
        tileIcon(this.tiles.get(chooser.placement(id).tile), chooser.placement(id).rotation, 28),
        h("span", { class: "chosen-text" }, `${label}: ${this.describe(chooser.placement(id), view)}`),
        h(
          "button",
          {
            type: "button",
            class: "small secondary",
            "data-key": `change-${step}`,
            onclick: () => {
              if (step === "1") this.first = null;
              this.second = null;
              this.openSquare = null;
              this.page.render();
            },
          },
          "Change",
        ),
      );
    const chosen = [];
    if (this.first !== null) chosen.push(pick("First", this.first, "1"));
    if (this.second !== null) chosen.push(pick("Second", this.second, "2"));
    if (chosen.length) out.push(h("ul", { class: "chosen" }, chosen));

    if (this.first === null) {
      out.push(
        h("p", {}, "Lay two tiles from your hand. Choose the square of your first tile among the highlighted ones."),
        chooser.complete ? null : h("p", { class: "hint" }, "Faint squares are still being looked at: click one to see its tiles at once."),
      );
    } else if (this.second === null) {
      const loading = chooser.firstMayGrow(this.first);
      out.push(h("p", {}, "Now choose the square of your second tile.", loading ? h("span", { class: "hint" }, " (loading more of them…)") : null));
      const single = chooser.action(this.first);
      if (single) {
        out.push(h("button", { type: "button", class: "primary", "data-key": "lay-one", disabled: busy, onclick: () => this.page.act(single) }, "Lay this tile only"));
      }
    } else {
      const action = chooser.action(this.first, this.second);
      out.push(
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "primary", "data-key": "lay", disabled: busy || !action, onclick: () => action && this.page.act(action) }, "Lay these two tiles"),
          h("button", { type: "button", class: "secondary", "data-key": "lay-reset", onclick: () => { this.reset(); this.page.render(); } }, "Start over"),
        ),
      );
    }

    if (this.openSquare && this.second === null) {
      out.push(this.optionsGroup(chooser, this.currentSquares(chooser).get(this.openSquare) || []));
    }
    return out;
  }

  // ------------------------------------------------------------------ the end

  result(view) {
    const r = view.result;
    const rows = view.players.map((p) => {
      const won = r.winners.includes(p.seat);
      const line = p.line ? this.line(p.line) : null;
      return h(
        "tr",
        { class: (won ? "winner" : "") + standingClass(p), "data-seat": p.seat },
        h(
          "th",
          { scope: "row" },
          h("span", { class: "swatch tram-swatch", "data-seat": p.seat % TRAM_COLORS.length }, String(p.seat + 1)),
          " ",
          h("span", { class: "name" }, p.name),
          won ? h("span", { class: "crown" }, " — winner") : null,
          standingBadge(p),
        ),
        h("td", {}, line ? h("span", { class: "line-chip", "data-color": line.color }, `line ${line.id}`) : "–"),
        h("td", {}, p.route ? p.route.map((l) => `${l} ${this.stopName(l)}`).join(", ") : "–"),
        h("td", {}, p.ride ? `${p.ride.from} → ${p.ride.to}: space ${p.ride.position} of ${p.ride.length}` : "did not ride"),
      );
    });
    return h(
      "section",
      { class: "card result", "aria-labelledby": "result-title" },
      h("h2", { id: "result-title" }, "Final result"),
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "score-table" },
          h("thead", {}, h("tr", {}, ["Player", "Line", "Route", "Ride"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows),
        ),
      ),
      r.reason ? h("p", { class: "hint" }, `The game ended: ${String(r.reason).replace(/_/g, " ")}.`) : null,
    );
  }
}

