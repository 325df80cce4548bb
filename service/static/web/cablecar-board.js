// The cable-car board as SVG, drawn from GET /v1/boards/cable-car and the view:
// the 12×12 grid, stops, terminal loops in their line colours (numbered, so no
// colour needs telling apart), tiles drawn from their segments and rotation,
// rides and trams.

import { s, svgButton, titleCase } from "./dom.js";
import { LINE_COLORS, TRAM_COLORS } from "./palette.js";

export const CELL = 48;
const MARGIN = 62;
const LOOP = 30;

const EDGE_POINT = { N: [0.5, 0], E: [1, 0.5], S: [0.5, 1], W: [0, 0.5] };
const CORNER = { NE: [1, 0], EN: [1, 0], ES: [1, 1], SE: [1, 1], SW: [0, 1], WS: [0, 1], NW: [0, 0], WN: [0, 0] };
const OUT = { N: [0, -1], S: [0, 1], W: [-1, 0], E: [1, 0] };

/** The SVG path of one segment (a pair of edges) on a tile of side `size` at (0, 0). */
export function segmentPath([a, b], size) {
  const [x1, y1] = EDGE_POINT[a].map((v) => v * size);
  const [x2, y2] = EDGE_POINT[b].map((v) => v * size);
  const corner = CORNER[a + b];
  if (!corner) return `M${x1} ${y1} L${x2} ${y2}`;
  const [cx, cy] = corner.map((v) => v * size);
  const cross = (x1 - cx) * (y2 - cy) - (y1 - cy) * (x2 - cx);
  return `M${x1} ${y1} A${size / 2} ${size / 2} 0 0 ${cross > 0 ? 1 : 0} ${x2} ${y2}`;
}

/** A tile's track (segments turned by `rotation` quarter turns) as an SVG group of side `size`. */
export function tileGraphic(tileDef, rotation, size, { preview = false } = {}) {
  const g = s("g", { class: preview ? "tile preview" : "tile" });
  g.append(s("rect", { class: "tile-bg", x: 0.5, y: 0.5, width: size - 1, height: size - 1, rx: 3 }));
  const track = s("g", { transform: `rotate(${90 * rotation} ${size / 2} ${size / 2})` });
  for (const seg of tileDef ? tileDef.segments : []) {
    const d = segmentPath(seg, size);
    track.append(s("path", { class: "sleepers", d }), s("path", { class: "rail", d }));
  }
  g.append(track);
  if (tileDef && tileDef.tree) g.append(s("circle", { class: "tree", cx: size * 0.82, cy: size * 0.18, r: size * 0.07 }));
  return g;
}

/** A small stand-alone picture of a tile (for hands and choices). */
export function tileIcon(tileDef, rotation = 0, size = 34) {
  return s(
    "svg",
    { class: "tile-icon", viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true" },
    tileGraphic(tileDef, rotation, size),
  );
}

/** Turn a drawn square into a button that offers placements (also on a board already drawn). */
export function makeSelectable(cell, label, onActivate, open = false) {
  const [row, col] = cell.getAttribute("data-square").split(",");
  for (const old of cell.querySelectorAll(":scope > title")) old.remove();
  cell.classList.add("selectable");
  if (open) cell.classList.add("open");
  cell.append(s("rect", { class: "select-ring", x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 4 }));
  svgButton(cell, label, onActivate);
  cell.setAttribute("data-key", `sq-${row}-${col}`);
}

function origin(row, col) {
  return [MARGIN + (col - 1) * CELL, MARGIN + (row - 1) * CELL];
}

function centre(row, col) {
  const [x, y] = origin(row, col);
  return [x + CELL / 2, y + CELL / 2];
}

/** The two ends and apex of a terminal loop. */
function terminalGeometry(terminal) {
  const [dx, dy] = OUT[terminal.edge];
  const ends = terminal.squares.map(([row, col]) => {
    const [x, y] = origin(row, col);
    const [ex, ey] = EDGE_POINT[terminal.edge];
    return [x + ex * CELL, y + ey * CELL];
  });
  const mid = [(ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2];
  return { ends, out: [dx, dy], apex: [mid[0] + dx * LOOP * 0.8, mid[1] + dy * LOOP * 0.8] };
}

function lineColor(line) {
  return LINE_COLORS[line.color] || line.color;
}

/** What drawing a square needs, computed once per board. */
export function squaresContext(board, view, ui) {
  const stopTile = new Map();
  for (const [letter, sq] of Object.entries(view.stops || {})) if (sq) stopTile.set(`${sq[0]},${sq[1]}`, letter);
  return {
    ui,
    tiles: new Map(board.tiles.map((t) => [t.id, t])),
    stopAt: new Map(board.stops.map((st) => [`${st.row},${st.col}`, st])),
    placed: new Map((view.tiles || []).map((t) => [`${t.row},${t.col}`, t])),
    stopTile,
    myStops: new Set(ui.me && ui.me.route ? ui.me.route : []),
    previewAt: new Map((ui.preview || []).map((p) => [`${p.placement.row},${p.placement.col}`, p])),
  };
}

/** One square: a stop, or a tile (laid or previewed) with its stop badge; clickable when
 * `ui.selectable` (choices listed) or `ui.maybe` (choices may come with more pages) names it. */
export function squareCell(ctx, row, col) {
  const key = `${row},${col}`;
  const [x, y] = origin(row, col);
  const cell = s("g", { class: "square", transform: `translate(${x} ${y})`, "data-square": key });
  const stop = ctx.stopAt.get(key);
  if (stop) {
    cell.classList.add("stop");
    const mine = ctx.myStops.has(stop.letter);
    if (mine) cell.classList.add("my-stop");
    cell.append(
      s("rect", { class: "stop-bg", x: 1, y: 1, width: CELL - 2, height: CELL - 2, rx: 6 }),
      s("circle", { class: "stop-ring", cx: CELL / 2, cy: CELL / 2, r: 15 }),
      s("text", { class: "stop-letter", x: CELL / 2, y: CELL / 2 + 0.5 }, stop.letter),
      s("title", {}, `Stop ${stop.letter}: ${stop.name}${mine ? " (on your route)" : ""}`),
    );
    return cell;
  }
  cell.append(s("rect", { class: "cell-bg", x: 0, y: 0, width: CELL, height: CELL }));
  const tile = ctx.placed.get(key);
  const preview = ctx.previewAt.get(key);
  if (tile && !preview) cell.append(tileGraphic(ctx.tiles.get(tile.tile), tile.rotation, CELL));
  if (preview) {
    cell.append(tileGraphic(ctx.tiles.get(preview.placement.tile), preview.placement.rotation, CELL, { preview: true }));
    cell.append(s("circle", { class: "order-badge", cx: 9, cy: CELL - 9, r: 7 }), s("text", { class: "order-num", x: 9, y: CELL - 8.5 }, String(preview.order)));
  }
  const letter = ctx.stopTile.get(key);
  if (letter) {
    cell.append(s("rect", { class: "stop-badge", x: CELL - 16, y: CELL - 16, width: 14, height: 14, rx: 3 }), s("text", { class: "stop-badge-text", x: CELL - 9, y: CELL - 8.5 }, letter));
  }
  const ui = ctx.ui;
  const label = (ui.selectable && ui.selectable.get(key)) || (ui.maybe && ui.maybe.get(key));
  if (label) {
    makeSelectable(cell, label, () => ui.onSquare(row, col), ui.openSquare === key);
    if (!(ui.selectable && ui.selectable.has(key))) cell.classList.add("maybe");
  } else {
    const what = tile ? `${titleCase(tile.tile)}, turned ${tile.rotation * 90}°` : "empty";
    cell.append(s("title", {}, `Row ${row}, column ${col}: ${what}${letter ? `, tile of stop ${letter}` : ""}`));
  }
  return cell;
}

/** The whole board.  `ui`: {me, selectable and maybe: Map "r,c" -> label, openSquare,
 * onSquare(row, col), preview: [{placement, order}]}. */
export function cableCarBoard(board, view, ui) {
  const size = 2 * MARGIN + board.grid.cols * CELL;
  const svg = s("svg", { class: "map cc-board", viewBox: `0 0 ${size} ${size}`, role: "group", "aria-label": "Cable-car board: 12 by 12 squares" });
  svg.append(s("rect", { class: "cc-bg", x: 0, y: 0, width: size, height: size, rx: 10 }));

  // Coordinates along the edges.
  const coords = s("g", { class: "coords", "aria-hidden": "true" });
  for (let i = 1; i <= board.grid.cols; i++) {
    const [x] = centre(1, i);
    coords.append(s("text", { x, y: 12 }, String(i)), s("text", { x, y: size - 6 }, String(i)));
  }
  for (let i = 1; i <= board.grid.rows; i++) {
    const [, y] = centre(i, 1);
    coords.append(s("text", { x: 10, y }, String(i)), s("text", { x: size - 10, y }, String(i)));
  }
  svg.append(coords);

  // Terminal loops.
  const myTerminals = new Set(ui.me && ui.me.terminals ? ui.me.terminals : []);
  const loops = s("g", { class: "terminals" });
  for (const line of board.lines) {
    for (const t of line.terminals) {
      const { ends, out, apex } = terminalGeometry(t);
      const [[x1, y1], [x2, y2]] = ends;
      const d = `M${x1} ${y1} C${x1 + out[0] * LOOP * 1.3} ${y1 + out[1] * LOOP * 1.3} ${x2 + out[0] * LOOP * 1.3} ${y2 + out[1] * LOOP * 1.3} ${x2} ${y2}`;
      const mine = myTerminals.has(t.name);
      const g = s("g", { class: mine ? "terminal mine" : "terminal", "data-terminal": t.name });
      g.append(
        s("path", { class: "loop-casing", d }),
        s("path", { class: "loop", d, stroke: lineColor(line) }),
        s("circle", { class: "line-badge", cx: apex[0], cy: apex[1], r: 10, fill: lineColor(line) }),
        s("text", { class: line.color === "yellow" || line.color === "white" || line.color === "pink" ? "line-num dark" : "line-num", x: apex[0], y: apex[1] + 0.5 }, line.id),
        s("title", {}, `${t.name}: terminal of line ${line.id} (${line.color})${mine ? " — yours" : ""}`),
      );
      loops.append(g);
    }
  }
  svg.append(loops);

  // Squares, stops, tiles.
  const ctx = squaresContext(board, view, ui);
  const grid = s("g", { class: "squares" });
  for (let row = 1; row <= board.grid.rows; row++) {
    for (let col = 1; col <= board.grid.cols; col++) grid.append(squareCell(ctx, row, col));
  }
  svg.append(grid);

  // Rides and trams.
  const terminalsByName = new Map();
  const colorOfLine = new Map(board.lines.map((l) => [l.id, lineColor(l)]));
  for (const line of board.lines) for (const t of line.terminals) terminalsByName.set(t.name, terminalGeometry(t).apex);
  const trams = s("g", { class: "trams" });
  view.players.forEach((p) => {
    if (!p.ride) return;
    const points = p.ride.spaces.map((sp) => (Array.isArray(sp) ? centre(sp[0], sp[1]) : terminalsByName.get(sp))).filter(Boolean);
    const d = points.map(([x, y]) => `${x},${y}`).join(" ");
    trams.append(
      s("polyline", { class: "ride-casing", points: d }),
      s("polyline", { class: "ride-path", points: d, stroke: colorOfLine.get(p.line) || TRAM_COLORS[p.seat % TRAM_COLORS.length] }, s("title", {}, `${p.name}'s ride: ${p.ride.from} → ${p.ride.to}`)),
    );
  });
  view.players.forEach((p, i) => {
    if (!p.tram) return;
    const [cx, cy] = p.tram.terminal && terminalsByName.has(p.tram.terminal) ? terminalsByName.get(p.tram.terminal) : centre(p.tram.row, p.tram.col);
    const dx = ((i % 3) - 1) * 8;
    const tram = s("g", { class: "tram", transform: `translate(${cx + dx} ${cy})`, "data-seat": p.seat });
    tram.append(
      s("rect", { x: -11, y: -8, width: 22, height: 16, rx: 4, fill: TRAM_COLORS[p.seat % TRAM_COLORS.length] }),
      s("text", { x: 0, y: 0.5 }, String(p.seat + 1)),
      s("title", {}, `${p.name}'s tram: space ${p.tram.space} of ${p.ride ? p.ride.length : "?"}`),
    );
    trams.append(tram);
  });
  svg.append(trams);
  return svg;
}
