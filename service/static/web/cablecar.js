// San Francisco cable cars at the table: the board, the players' open hands,
// the seat's line and route, laying two tiles (chosen among the listed legal
// pairs, with a preview), starting the ride and rolling the die.

import { h, plural, titleCase } from "./dom.js";
import { cableCarBoard, makeSelectable, tileIcon } from "./cablecar-board.js";
import { TRAM_COLORS } from "./palette.js";
import { squareKey } from "./choices.js";

const DIE_WORDS = { H: "H — on to the next stop" };

function turned(rotation) {
  return rotation ? `turned ${rotation * 90}°` : "not turned";
}

export class CableCarTable {
  constructor(page) {
    this.page = page;
    this.tiles = new Map(page.board.tiles.map((t) => [t.id, t]));
    this.reset();
  }

  /** Forget the tiles being chosen (the game moved on). */
  reset() {
    this.first = null;
    this.second = null;
    this.openSquare = null;
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
    const chooser = !this.page.replay && this.page.canAct ? this.page.chooser : null;
    const selectable = chooser ? this.selectableSquares(chooser) : null;
    const preview = [];
    if (chooser && this.first !== null) preview.push({ placement: chooser.placement(this.first), order: 1 });
    if (chooser && this.second !== null) preview.push({ placement: chooser.placement(this.second), order: 2 });
    return cableCarBoard(this.page.board, view, {
      me: view.me,
      selectable,
      openSquare: this.openSquare,
      preview,
      onSquare: (row, col) => this.openAt(row, col),
    });
  }

  /** Squares the player may click now ("r,c" -> label), or null. */
  selectableSquares(chooser) {
    if (!chooser.canLay || this.second !== null) return null;
    const squares = this.currentSquares(chooser);
    const step = this.first === null ? "first" : "second";
    return new Map(
      [...squares].map(([key, ids]) => {
        const [row, col] = key.split(",");
        return [key, `Row ${row}, column ${col}: ${plural(ids.length, "way")} to lay your ${step} tile here`];
      }),
    );
  }

  currentSquares(chooser) {
    return this.first === null ? chooser.firstSquares() : chooser.secondSquares(this.first);
  }

  openAt(row, col) {
    this.openSquare = squareKey(row, col);
    this.page.render();
    const first = this.page.root.querySelector(".placement-options button");
    if (first) first.focus();
  }

  /** Another page of choices arrived: update the page in place (the progress, newly
   * clickable squares, the open square's tiles) rather than redrawing it under the pointer. */
  grow() {
    const chooser = this.page.chooser;
    const root = this.page.root;
    if (!chooser || !root.querySelector(".cc-board")) return;
    const row = root.querySelector(".progress-row");
    if (!row) {
      this.page.render();
      return;
    }
    row.replaceWith(this.progressRow(chooser));
    const selectable = this.selectableSquares(chooser);
    for (const [key, label] of selectable || []) {
      const cell = root.querySelector(`.cc-board .square[data-square="${key}"]`);
      if (cell && !cell.classList.contains("selectable")) {
        const [r, c] = key.split(",").map(Number);
        makeSelectable(cell, label, () => this.openAt(r, c), this.openSquare === key);
      }
    }
    const options = root.querySelector(".placement-options");
    if (options && this.openSquare) {
      const ids = this.currentSquares(chooser).get(this.openSquare) || [];
      if (Number(options.getAttribute("data-count")) !== ids.length) options.replaceWith(this.optionsGroup(chooser, ids));
    }
  }

  // ------------------------------------------------------------------ side panels

  panels(view) {
    const out = [this.playersPanel(view)];
    if (view.me) out.push(this.mePanel(view));
    if (!this.page.replay && this.page.canAct) out.push(this.actionPanel(view));
    return out;
  }

  playersPanel(view) {
    const rows = view.players.map((p) => {
      const active = view.active_seats.includes(p.seat);
      const line = p.line ? this.line(p.line) : null;
      let state = "laying track";
      if (p.ride) state = `riding: space ${p.ride.position} of ${p.ride.length}`;
      if (view.result && view.result.winners.includes(p.seat)) state = "arrived — winner";
      return h(
        "tr",
        { class: active ? "active" : "", "data-seat": p.seat },
        h(
          "th",
          { scope: "row" },
          h("span", { class: "swatch tram-swatch", "data-seat": p.seat % TRAM_COLORS.length }, String(p.seat + 1)),
          " ",
          p.name,
          p.seat === this.page.mySeat ? h("span", { class: "you" }, " (you)") : null,
          active ? h("span", { class: "to-act", title: "to act" }, " ▶") : null,
        ),
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
        h(
          "table",
          { class: "players-table" },
          h("thead", {}, h("tr", {}, ["Player", "Hand (open)", "Doing", "Line"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows),
        ),
      ),
    );
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
    const me = view.players[this.page.mySeat];
    if (me && me.last_roll) {
      parts.push(h("p", { class: "die-result" }, h("span", { class: "die" }, me.last_roll), ` You rolled ${DIE_WORDS[me.last_roll] || me.last_roll}.`));
    }
    if (rolls.length) {
      parts.push(h("button", { type: "button", class: "primary big", "data-key": "roll", disabled: busy, onclick: () => this.page.act(rolls[0]) }, "Roll the die"));
    }
    if (rides.length) {
      parts.push(
        h("p", {}, "Your network is complete: you may start the inaugural ride."),
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

  progressRow(chooser) {
    return h(
      "div",
      { class: "progress-row" },
      h("progress", { max: String(chooser.total || 1), value: String(chooser.loaded), "aria-label": "Choices loaded" }),
      h(
        "span",
        { class: "hint" },
        chooser.complete
          ? `${chooser.total.toLocaleString()} ways to lay your tiles`
          : `loading choices: ${chooser.loaded.toLocaleString()} of ${chooser.total.toLocaleString()}`,
      ),
    );
  }

  /** The tiles that may go on the open square at this step. */
  optionsGroup(chooser, ids) {
    const [row, col] = this.openSquare.split(",");
    return h(
      "div",
      { class: "placement-options", role: "group", "aria-label": `Tiles for row ${row}, column ${col}`, "data-count": ids.length },
      h("p", {}, h("strong", {}, `Row ${row}, column ${col}`), ids.length ? ": choose a tile" : ": nothing can go here now"),
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
              {
                type: "button",
                class: "option",
                "data-key": `opt-${p.tile}-${p.rotation}`,
                "data-tile": p.tile,
                onclick: () => {
                  if (this.first === null) this.first = id;
                  else this.second = id;
                  this.openSquare = null;
                  this.page.render();
                  const next = this.page.root.querySelector('[data-key="lay"], .cc-board .selectable');
                  if (next) next.focus();
                },
              },
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
      out.push(h("p", {}, "Lay two tiles from your hand. Choose the square of your first tile: the highlighted squares on the board."));
    } else if (this.second === null) {
      out.push(h("p", {}, "Now choose the square of your second tile."));
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
        { class: won ? "winner" : "" },
        h("th", { scope: "row" }, h("span", { class: "swatch tram-swatch", "data-seat": p.seat % TRAM_COLORS.length }, String(p.seat + 1)), " ", p.name, won ? h("span", { class: "crown" }, " — winner") : null),
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

