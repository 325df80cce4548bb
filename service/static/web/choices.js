// The cable-car tile choice, built from the paged legal-action list.
//
// An opening has ~150,000 legal pairs of placements, so the list arrives in
// pages.  Each page is folded into an index: distinct placements get small ids,
// and every first placement keeps the set of second placements listed with it.
// The player picks a first placement among the distinct firsts fetched so far,
// then a second among that first's partners; the body sent is exactly the
// listed action.  The page holds no rules: everything offered was listed.
//
// Beside the pages, in list order, the page asks about single squares
// (`?square=R,C`): how many actions start there (so the whole board is
// highlighted at once), and all of a square's actions when the player opens it.

function keyOf(p) {
  return `${p.tile}:${p.row}:${p.col}:${p.rotation}`;
}

export function squareKey(row, col) {
  return `${row},${col}`;
}

export class PlacementChooser {
  constructor() {
    this.ids = new Map(); // placement key -> id
    this.placements = []; // id -> {tile, row, col, rotation}
    this.partners = new Map(); // first id -> Set of second ids
    this.singles = new Set(); // ids laid alone (when no pair is legal)
    this.others = []; // every action that is not lay_tiles (start_ride, roll)
    this.loaded = 0;
    this.total = 0;
    this.pages = 0;
    this.ended = false; // the last page has been folded in
    this.lastFirst = null; // id of the latest first placement listed
    this.frontier = null; // [row, col] of the latest first placement listed
    this.squaresCache = null;
    this.squareTotals = new Map(); // "r,c" -> how many listed actions start on it (asked per square)
    this.fullSquares = new Set(); // "r,c" whose every action has been folded in (asked per square)
  }

  intern(p) {
    const key = keyOf(p);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.placements.length;
      this.ids.set(key, id);
      this.placements.push({ tile: p.tile, row: p.row, col: p.col, rotation: p.rotation });
    }
    return id;
  }

  /** Fold one page of legal actions in; `total` is the length of the whole list and
   * `last` says whether this was its last page. */
  add(actions, total, last = false) {
    for (const action of actions) {
      if (action.type !== "lay_tiles") {
        this.others.push(action);
        continue;
      }
      const [first, second] = action.placements;
      const a = this.intern(first);
      this.lastFirst = a;
      if (!this.frontier || first.row > this.frontier[0] || (first.row === this.frontier[0] && first.col > this.frontier[1])) {
        this.frontier = [first.row, first.col]; // never moves back (double exchanges come last)
      }
      if (!second) {
        this.singles.add(a);
        if (!this.partners.has(a)) this.partners.set(a, new Set());
        continue;
      }
      const b = this.intern(second);
      let set = this.partners.get(a);
      if (!set) {
        set = new Set();
        this.partners.set(a, set);
      }
      set.add(b);
    }
    this.loaded += actions.length;
    this.total = total;
    this.pages += 1;
    this.ended = this.ended || last || this.loaded >= total;
    this.squaresCache = null;
  }

  /** Record how many actions start on square `key` (the `total` of its `?square=` list). */
  noteSquare(key, total) {
    this.squareTotals.set(key, total);
    this.squaresCache = null;
  }

  /** Fold in every action whose first placement is on square `key` (its whole `?square=`
   * list), out of list order: the pages' count and frontier stay as they were. */
  addSquare(key, actions) {
    for (const action of actions) {
      if (action.type !== "lay_tiles") continue;
      const [first, second] = action.placements;
      const a = this.intern(first);
      if (!this.partners.has(a)) this.partners.set(a, new Set());
      if (second) this.partners.get(a).add(this.intern(second));
      else this.singles.add(a);
    }
    this.fullSquares.add(key);
    this.squareTotals.set(key, actions.length);
    this.squaresCache = null;
  }

  /** Squares known (asked one by one) to have actions, none of which is folded in yet. */
  knownSquares() {
    const listed = this.firstSquares();
    return [...this.squareTotals].filter(([key, total]) => total > 0 && !listed.has(key));
  }

  /** Whether every page has been folded in. */
  get complete() {
    return this.ended;
  }

  /** Whether later pages may still add first placements on square "row,col": the square
   * of the latest first placement listed, or one after it (see beyondFrontier). */
  squareMayGrow(key) {
    if (this.fullSquares.has(key)) return false;
    const [row, col] = key.split(",").map(Number);
    return this.beyondFrontier(row, col);
  }

  /** Whether later pages may still list pairs starting with `first`: it is the latest
   * first placement listed (its group may go on in the next page). */
  firstMayGrow(first) {
    const p = this.placement(first);
    return !this.complete && this.lastFirst === first && !this.fullSquares.has(squareKey(p.row, p.col));
  }

  /** Whether square (row, col) is the square of the latest first placement listed or
   * comes after it.  The server lists pairs in a fixed order, grouped by the square of
   * their first placement, row by row (double exchanges last), so only such a square may
   * still get first placements from later pages. */
  beyondFrontier(row, col) {
    if (this.complete) return false;
    if (!this.frontier) return true;
    const [fr, fc] = this.frontier;
    return row > fr || (row === fr && col >= fc);
  }

  /** Whether any lay_tiles action was listed. */
  get canLay() {
    return this.partners.size > 0;
  }

  placement(id) {
    return this.placements[id];
  }

  /** Map of "row,col" -> ids of the distinct first placements on that square. */
  firstSquares() {
    if (!this.squaresCache) this.squaresCache = groupBySquare(this, this.partners.keys());
    return this.squaresCache;
  }

  /** Map of "row,col" -> ids of the second placements listed after `first`. */
  secondSquares(first) {
    return groupBySquare(this, this.partners.get(first) || []);
  }

  /** Whether `first` may be laid alone (listed as a one-placement action). */
  isSingle(first) {
    return this.singles.has(first);
  }

  /** The listed action body for (first, second), or (first) alone; null if not listed. */
  action(first, second = null) {
    if (second === null) {
      return this.singles.has(first) ? { type: "lay_tiles", placements: [this.placement(first)] } : null;
    }
    const set = this.partners.get(first);
    if (!set || !set.has(second)) return null;
    return { type: "lay_tiles", placements: [this.placement(first), this.placement(second)] };
  }
}

function groupBySquare(chooser, ids) {
  const out = new Map();
  for (const id of ids) {
    const p = chooser.placement(id);
    const key = squareKey(p.row, p.col);
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(id);
  }
  return out;
}
