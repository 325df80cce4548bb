// The Ticket to Ride: San Francisco map as SVG, drawn from GET /v1/boards/ttr-sf.
//
// Routes are rows of spaces in their colour, each space lettered (and patterned)
// so that colours never need to be told apart; ferry spaces carry a wave and a
// dashed border; the two routes of a double route run side by side; claimed
// routes turn into the seat's cars, numbered with the seat.

import { s, svgButton, titleCase } from "./dom.js";
import { cardColor, seatColor, souvenirShort } from "./palette.js";

const SCALE = 100; // pixels per board unit
const PAD = 70;
const NODE_R = 15;
const SPACE_H = 15;
const SPACE_GAP = 3;
const DOUBLE_OFFSET = 10;
// Location names are 12 units high (.loc-name). On a screen where that draws them smaller than
// NAME_MIN_PX (a phone shows the whole map ~350 px wide: 4 px names), they are hidden, and the
// location pointed at, focused, tapped or highlighted shows its name NAME_CALLOUT_PX high instead.
const LABEL_FONT = 12;
const NAME_MIN_PX = 7;
const NAME_CALLOUT_PX = 14;

function patterns() {
  const pat = (id, ...children) =>
    s("pattern", { id, width: 6, height: 6, patternUnits: "userSpaceOnUse" }, ...children);
  const ink = { stroke: "rgba(255,255,255,0.45)", "stroke-width": 1.2 };
  return s(
    "defs",
    {},
    pat("pat-hlines", s("path", { d: "M0 3 H6", ...ink })),
    pat("pat-vlines", s("path", { d: "M3 0 V6", ...ink })),
    pat("pat-diag", s("path", { d: "M0 6 L6 0", ...ink })),
    pat("pat-dots", s("circle", { cx: 3, cy: 3, r: 1.1, fill: "rgba(255,255,255,0.5)" })),
    pat("pat-checks", s("rect", { x: 0, y: 0, width: 3, height: 3, fill: "rgba(0,0,0,0.12)" }), s("rect", { x: 3, y: 3, width: 3, height: 3, fill: "rgba(0,0,0,0.12)" })),
    s(
      "linearGradient",
      { id: "ferry-fill", x1: 0, y1: 0, x2: 1, y2: 0 },
      ["#d4372b", "#f28c1c", "#f2c230", "#2c9a4b", "#2f6bd8", "#8d44c9"].map((c, i) => s("stop", { offset: `${(i / 5) * 100}%`, "stop-color": c })),
    ),
  );
}

function bounds(locations) {
  const xs = locations.map((l) => l.x);
  const ys = locations.map((l) => l.y);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

/** Pixel position of a location. */
function at(loc, b) {
  return { x: (loc.x - b.minX) * SCALE + PAD, y: (loc.y - b.minY) * SCALE + PAD };
}

/** Which side of its twin a double route runs on (+1 / -1), 0 for a single route. */
function doubleSide(route) {
  if (!route.double_of) return 0;
  return route.id < route.double_of ? 1 : -1;
}

/** The centres and angle of a route's spaces. */
export function routeSpaces(route, locs, b) {
  const p = at(locs.get(route.from), b);
  const q = at(locs.get(route.to), b);
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const d = Math.hypot(dx, dy);
  const ux = dx / d;
  const uy = dy / d;
  const offset = doubleSide(route) * DOUBLE_OFFSET;
  const nx = -uy * offset;
  const ny = ux * offset;
  const usable = d - 2 * (NODE_R + 4);
  const step = usable / route.length;
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  const spaces = [];
  for (let i = 0; i < route.length; i++) {
    const t = NODE_R + 4 + step * (i + 0.5);
    spaces.push({ x: p.x + ux * t + nx, y: p.y + uy * t + ny });
  }
  const start = NODE_R + 4;
  const end = d - NODE_R - 4;
  const hit = `M${(p.x + ux * start + nx).toFixed(1)} ${(p.y + uy * start + ny).toFixed(1)} L${(p.x + ux * end + nx).toFixed(1)} ${(p.y + uy * end + ny).toFixed(1)}`;
  return { spaces, angle, width: Math.max(6, step - SPACE_GAP), hit };
}

/** Indexes of a route's ferry spaces (the middle ones). */
function ferrySpaces(route) {
  const first = Math.floor((route.length - route.ferries) / 2);
  return new Set(Array.from({ length: route.ferries }, (_, i) => first + i));
}

function locationName(locs, id) {
  const loc = locs.get(id);
  return loc ? loc.name : titleCase(id);
}

export function routeLabel(route, locs) {
  const ferry = route.ferries ? `, ${route.ferries} ferry` : "";
  const color = route.color === "gray" ? "gray (any one colour)" : route.color;
  return `${locationName(locs, route.from)} – ${locationName(locs, route.to)}: ${route.length} ${color}${ferry}`;
}

function drawRoute(route, geometry, owner, ownerColor, ui, locs) {
  const color = cardColor(route.color);
  const ferries = ferrySpaces(route);
  const g = s("g", {
    class: ["route", owner !== null ? "claimed" : "", ui.claimable.has(route.id) ? "claimable" : "", ui.selectedRoute === route.id ? "selected" : ""].join(" ").trim(),
    "data-route": route.id,
  });
  g.append(s("path", { class: "hit", d: geometry.hit }));
  geometry.spaces.forEach((c, i) => {
    const transform = `translate(${c.x.toFixed(1)} ${c.y.toFixed(1)}) rotate(${geometry.angle.toFixed(1)})`;
    const box = { x: -geometry.width / 2, y: -SPACE_H / 2, width: geometry.width, height: SPACE_H, rx: 2.5 };
    const space = s("g", { transform });
    if (owner !== null) {
      space.append(
        s("rect", { ...box, fill: ownerColor.fill, stroke: "#1b1b1b", "stroke-width": 1.6, class: "car" }),
        s("text", { class: "car-seat", x: 0, y: 0.5, fill: ownerColor.ink, transform: `rotate(${(-geometry.angle).toFixed(1)})` }, String(owner + 1)),
      );
    } else {
      const ferry = ferries.has(i);
      space.append(
        s("rect", { ...box, fill: ferry ? "url(#ferry-fill)" : color.fill, stroke: ferry ? "#1b1b1b" : "#3a3a3a", "stroke-width": ferry ? 1.4 : 1, "stroke-dasharray": ferry ? "3 2" : null, class: "space" }),
      );
      if (!ferry && color.pattern !== "pat-none") space.append(s("rect", { ...box, fill: `url(#${color.pattern})`, "pointer-events": "none" }));
      if (ferry) {
        space.append(s("path", { d: "M-7 1 q2.3 -4 4.6 0 t4.6 0 t4.6 0", fill: "none", stroke: "#1b1b1b", "stroke-width": 1.6, transform: `rotate(${(-geometry.angle).toFixed(1)})` }));
      } else if (color.letter) {
        space.append(s("text", { class: "space-letter", x: 0, y: 0.5, fill: color.ink, transform: `rotate(${(-geometry.angle).toFixed(1)})` }, color.letter));
      }
    }
    g.append(space);
  });
  const label = routeLabel(route, locs) + (owner !== null ? ` — claimed by seat ${owner + 1}` : "");
  if (ui.claimable.has(route.id)) {
    svgButton(g, `Claim ${label}`, () => ui.onRoute(route.id));
    g.setAttribute("data-key", `route-${route.id}`);
  } else {
    g.append(s("title", {}, label));
  }
  return g;
}

// Location names go where they cover the least: below the node if that is free, else above, beside or
// diagonally, a step further out, or on two lines, whichever overlaps fewest route spaces, nodes,
// souvenir badges, names already placed and the map's edge, nearest first (sizes in the map's units,
// estimated from the font: 12 px semibold, at most 8.3 units a character). The places depend on the
// board alone: computed once per board.
const LABEL_H = 14;
const LABEL_CHAR_W = 8.3;
const LABEL_SPOTS = (() => {
  const spots = []; // [anchor, dx, baseline dy] relative to the node's centre
  for (const dy of [NODE_R + 13, NODE_R + 20, NODE_R + 27]) spots.push(["middle", 0, dy], ["middle", 0, -dy - 7]);
  for (const dx of [NODE_R + 4, NODE_R + 12]) {
    for (const dy of [4, -4, 12, -12, 20, -20, 28, -28]) spots.push(["start", dx, dy], ["end", -dx, dy]);
  }
  for (const dy of [NODE_R + 13, NODE_R + 22]) {
    for (const dx of [NODE_R - 6, NODE_R + 2]) spots.push(["start", dx, dy], ["end", -dx, dy], ["start", dx, -dy - 6], ["end", -dx, -dy - 6]);
  }
  return spots;
})();
/** Where a souvenir badge goes, relative to its node's centre (reserved at every node). */
const BADGE = { dx: NODE_R + 2, dy: -NODE_R - 12, w: 38, h: 18 };

/** A name on one line, or on two split at its middle-most space. */
function nameLines(name) {
  const spaces = [...name.matchAll(/ /g)].map((m) => m.index);
  if (!spaces.length) return [[name]];
  const cut = spaces.reduce((a, c) => (Math.abs(c - name.length / 2) < Math.abs(a - name.length / 2) ? c : a));
  return [[name], [name.slice(0, cut), name.slice(cut + 1)]];
}

/** The box of `lines` at `spot`, and the baseline of its first line. Below the node a name
 * grows down, above it up, beside it both ways. */
function labelBox(p, lines, [anchor, dx, dy]) {
  const w = Math.max(...lines.map((l) => l.length)) * LABEL_CHAR_W + 2;
  const extra = (lines.length - 1) * LABEL_H;
  const first = dy > NODE_R ? dy : dy < -NODE_R ? dy - extra : dy - extra / 2;
  const x = anchor === "middle" ? p.x + dx - w / 2 : anchor === "start" ? p.x + dx : p.x + dx - w;
  return { x, y: p.y + first - LABEL_H + 3, w, h: LABEL_H + extra, first };
}

function overlap(a, c) {
  const w = Math.min(a.x + a.w, c.x + c.w) - Math.max(a.x, c.x);
  const h = Math.min(a.y + a.h, c.y + c.h) - Math.max(a.y, c.y);
  return w > 0 && h > 0 ? w * h : 0;
}

const placedLabels = new WeakMap(); // board -> its names' places

/** location id -> {anchor, x, y (the first baseline), lines, box} of its name, relative to its node. */
function placeLabels(board, b, geometries, width, height) {
  if (!placedLabels.has(board)) placedLabels.set(board, arrangeLabels(board, b, geometries, width, height));
  return placedLabels.get(board);
}

function arrangeLabels(board, b, geometries, width, height) {
  const obstacles = [];
  for (const g of geometries) {
    // each space as a row of small squares along its length (a slanted space's bounding box is far larger)
    const rad = (g.angle * Math.PI) / 180;
    const n = Math.ceil(g.width / SPACE_H) + 1;
    for (const c of g.spaces) {
      for (let i = 0; i < n; i++) {
        const t = (i / (n - 1) - 0.5) * (g.width - SPACE_H);
        const x = c.x + Math.cos(rad) * t;
        const y = c.y + Math.sin(rad) * t;
        obstacles.push({ x: x - SPACE_H / 2, y: y - SPACE_H / 2, w: SPACE_H, h: SPACE_H, weight: 1 });
      }
    }
  }
  const points = new Map(board.locations.map((loc) => [loc.id, at(loc, b)]));
  for (const p of points.values()) {
    obstacles.push({ x: p.x - NODE_R - 2, y: p.y - NODE_R - 2, w: 2 * NODE_R + 4, h: 2 * NODE_R + 4, weight: 3 });
    obstacles.push({ x: p.x + BADGE.dx, y: p.y + BADGE.dy, w: BADGE.w, h: BADGE.h, weight: 3 });
  }
  const placed = new Map();
  for (const loc of board.locations) {
    const p = points.get(loc.id);
    let best = null;
    nameLines(loc.name).forEach((lines, split) => {
      LABEL_SPOTS.forEach((spot) => {
        const box = labelBox(p, lines, spot);
        const inside = { x: 0, y: 0, w: width, h: height };
        const far = Math.abs(spot[1]) + Math.abs(spot[2]) + (spot[0] === "middle" ? 0 : 8);
        let cost = 2 * far + split * 60 + 10 * (box.w * box.h - overlap(box, inside));
        for (const o of obstacles) cost += o.weight * overlap(box, o);
        if (!best || cost < best.cost) best = { cost, spot, box, lines };
      });
    });
    obstacles.push({ ...best.box, weight: 4 });
    const box = { x: best.box.x - p.x, y: best.box.y - p.y, w: best.box.w, h: best.box.h };
    placed.set(loc.id, { anchor: best.spot[0], x: best.spot[1], y: best.box.first, lines: best.lines, box });
  }
  return placed;
}

function coast(b) {
  // A decorative shoreline: the Golden Gate and the bay to the north and east.
  const pt = (x, y) => `${((x - b.minX) * SCALE + PAD).toFixed(0)} ${((y - b.minY) * SCALE + PAD).toFixed(0)}`;
  const land = [
    [-1, 0.45], [1.2, 0.55], [2.4, 0.35], [3.6, 0.95], [5.2, 0.75], [6.4, 0.65], [7.4, 0.3], [8.6, 0.25],
    [9.5, 1.0], [10.3, 2.0], [10.6, 3.6], [10.6, 5.4], [10.3, 8.2], [-1, 8.2],
  ];
  return s("path", { class: "land", d: "M" + land.map(([x, y]) => pt(x, y)).join(" L") + " Z" });
}

/** The whole map.  `ui`: {claimable: Map route->actions, selectedRoute, onRoute,
 * placeable: Set of location ids, onLocation, highlight: Set of location ids}. */
export function ttrMap(board, view, ui) {
  const locs = new Map(board.locations.map((l) => [l.id, l]));
  const b = bounds(board.locations);
  const width = (b.maxX - b.minX) * SCALE + 2 * PAD;
  const height = (b.maxY - b.minY) * SCALE + 2 * PAD;
  const svg = s("svg", {
    class: "map ttr-map",
    viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`,
    role: "group",
    "aria-label": "Map of San Francisco: locations and routes",
  });
  svg.append(patterns(), s("rect", { class: "water", x: 0, y: 0, width, height }), coast(b));
  const seatColors = board.seat_colors || [];
  const routes = s("g", { class: "routes" });
  const geometries = [];
  for (const route of board.routes) {
    const owner = view.claimed && route.id in view.claimed ? view.claimed[route.id] : null;
    const ownerColor = owner !== null ? seatColor(view.players[owner] ? view.players[owner].color : seatColors[owner]) : null;
    const geometry = routeSpaces(route, locs, b);
    geometries.push(geometry);
    routes.append(drawRoute(route, geometry, owner, ownerColor, ui, locs));
  }
  svg.append(routes);
  const labels = placeLabels(board, b, geometries, width, height);

  const places = s("g", { class: "locations" });
  const stacks = view.souvenir_stacks || {};
  for (const loc of board.locations) {
    const p = at(loc, b);
    const classes = ["location"];
    if (ui.placeable.has(loc.id)) classes.push("placeable");
    if (ui.highlight.has(loc.id)) classes.push("highlight");
    const g = s("g", { class: classes.join(" "), "data-location": loc.id, transform: `translate(${p.x.toFixed(1)} ${p.y.toFixed(1)})` });
    g.append(s("circle", { class: "ring", r: NODE_R + 6 }), s("circle", { class: "node", r: NODE_R }), s("circle", { class: "node-dot", r: 4 }));
    const label = labels.get(loc.id);
    g.append(s("text", { class: "loc-name", x: label.x, y: label.y, "text-anchor": label.anchor },
      ...label.lines.map((line, i) => s("tspan", { x: label.x, dy: i ? LABEL_H : 0 }, line))));
    g.append(s("text", { class: "loc-callout", x: 0, y: -(NODE_R + 8), "text-anchor": "middle" }, loc.name));
    const stack = stacks[loc.id];
    if (stack) {
      const badge = s("g", { class: stack.count ? "stack" : "stack empty", transform: `translate(${BADGE.dx} ${BADGE.dy})` });
      badge.append(
        s("rect", { x: 0, y: 0, width: 38, height: 18, rx: 9 }),
        s("text", { x: 19, y: 9.5 }, `${souvenirShort(stack.symbol)}×${stack.count}`),
        s("title", {}, `${titleCase(stack.symbol)} souvenirs: ${stack.count} left`),
      );
      g.append(badge);
    }
    if (ui.placeable.has(loc.id)) {
      // the node and its name, and the gap between them, all take the click
      const r = NODE_R + 6;
      const x0 = Math.min(-r, label.box.x);
      const y0 = Math.min(-r, label.box.y);
      const x1 = Math.max(r, label.box.x + label.box.w);
      const y1 = Math.max(r, label.box.y + label.box.h);
      g.prepend(s("rect", { class: "hit-area", x: x0, y: y0, width: x1 - x0, height: y1 - y0 }));
      svgButton(g, `Place the ${titleCase(ui.placeSymbol || "")} stack on ${loc.name}`, () => ui.onLocation(loc.id));
      g.setAttribute("data-key", `loc-${loc.id}`);
    } else {
      g.append(s("title", {}, loc.name + (stack ? ` — ${titleCase(stack.symbol)} ×${stack.count}` : "")));
      g.addEventListener("click", () => nameOnTap(places, g));
    }
    // the name shown over the others, not under the next locations' nodes
    g.addEventListener("pointerenter", () => svg.classList.contains("names-small") && g !== places.lastChild && places.append(g));
    places.append(g);
  }
  svg.append(places);
  fitNames(svg, width);
  return svg;
}

/** A tap on a location shows its name (while names are hidden), until another is tapped. */
function nameOnTap(places, g) {
  const was = g.classList.contains("named");
  for (const other of places.querySelectorAll(".location.named")) other.classList.remove("named");
  g.classList.toggle("named", !was);
}

let resized = null;

/** Hide the names while they would be drawn under NAME_MIN_PX, and size the names shown instead
 * (`--callout-size`, in the map's units) so that they are NAME_CALLOUT_PX high on the screen. */
function fitNames(svg, width) {
  const fit = (el) => {
    const shown = el.getBoundingClientRect().width;
    if (!shown) return;
    const scale = shown / width;
    el.classList.toggle("names-small", LABEL_FONT * scale < NAME_MIN_PX);
    el.style.setProperty("--callout-size", `${(NAME_CALLOUT_PX / scale).toFixed(1)}px`);
  };
  resized ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      if (entry.target.isConnected) fit(entry.target);
      else resized.unobserve(entry.target); // a map drawn again: the old one is gone
    }
  });
  resized.observe(svg);
}
