// Colours, and the letters and patterns that stand beside them so that no
// information is carried by colour alone.

/** Ticket to Ride transport colours (cards and routes). */
export const CARD_COLORS = {
  blue: { fill: "#2f6bd8", ink: "#fff", letter: "B", pattern: "pat-hlines" },
  green: { fill: "#2c9a4b", ink: "#fff", letter: "G", pattern: "pat-dots" },
  black: { fill: "#262626", ink: "#fff", letter: "K", pattern: "pat-none" },
  purple: { fill: "#8d44c9", ink: "#fff", letter: "P", pattern: "pat-diag" },
  red: { fill: "#d4372b", ink: "#fff", letter: "R", pattern: "pat-vlines" },
  orange: { fill: "#f28c1c", ink: "#1b1b1b", letter: "O", pattern: "pat-checks" },
  gray: { fill: "#a3a3a3", ink: "#1b1b1b", letter: "", pattern: "pat-none" },
  ferry: { fill: "#e8e1cf", ink: "#1b1b1b", letter: "F", pattern: "pat-none" },
};

/** Seat colours of Ticket to Ride (the board's own seat_colors name them). */
export const SEAT_COLORS = {
  purple: { fill: "#6b2fa3", ink: "#fff" },
  white: { fill: "#fbfbfb", ink: "#1b1b1b" },
  pink: { fill: "#ef6fae", ink: "#1b1b1b" },
  blue: { fill: "#1b5fb0", ink: "#fff" },
};

/** Cable-car line colours (the board's lines name them). */
export const LINE_COLORS = {
  red: "#d4372b",
  yellow: "#f2c230",
  green: "#2c9a4b",
  blue: "#2f6bd8",
  pink: "#ef6fae",
  white: "#f7f7f7",
};

/** Tram colours by seat in the cable-car game (trams also carry the seat number). */
export const TRAM_COLORS = ["#b3261e", "#1f5fae", "#2c8a47", "#8d44c9", "#c26a00", "#3b3b3b"];

/** Short labels of Ticket to Ride souvenir symbols (the full name is in a tooltip). */
export function souvenirShort(symbol) {
  const known = {
    bridge: "Br",
    "cable-car-bell": "Be",
    "fortune-cookie": "Fc",
    key: "Ky",
    "sea-lion": "SL",
    sourdough: "Sd",
    surfboard: "Sb",
  };
  return known[symbol] || String(symbol).slice(0, 2);
}

/** A colour entry for an unknown name (a board loaded with other colours still draws). */
export function cardColor(name) {
  return CARD_COLORS[name] || { fill: "#bbb", ink: "#111", letter: String(name).charAt(0).toUpperCase(), pattern: "pat-none" };
}

export function seatColor(name) {
  return SEAT_COLORS[name] || { fill: "#999", ink: "#111" };
}
