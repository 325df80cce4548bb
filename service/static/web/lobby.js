// The lobby: create a game, hand out its seat links, list recent games.

import * as api from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { absoluteLink, fragment } from "./route.js";
import { describeTimeControl } from "./clocks.js";

const HOW_TO = "Create a game, send each player their seat link, and watch or replay any game.";
const DEFAULT_NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"];
// What each server bot (GET /v1/game-types lists a type's `bots`) is, for people choosing one.
const BOT_LEVELS = { random: "beginner (random)", greedy: "easy (greedy)", planner: "strong (planner)", mcts: "strongest (search)" };
// The level "Play against the computer" gives the other seats.
const DEFAULT_BOT = "planner";

function botLabel(bot) {
  return `Computer: ${BOT_LEVELS[bot] || bot}`;
}

/** "A", "A and B", "A, B and C". */
function listOf(words) {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function typeTitle(types, id) {
  const t = types.find((x) => x.type === id);
  return t ? t.title : id;
}

/** A link with a copy button; the link text can be selected by hand too. */
function shareRow(label, link, key, openLabel) {
  const input = h("input", { type: "text", readonly: true, value: link, "aria-label": `${label}: link`, class: "link-text" });
  input.addEventListener("focus", () => input.select());
  const status = h("span", { class: "copied", "aria-live": "polite" });
  const copy = h(
    "button",
    {
      type: "button",
      class: "small",
      "data-key": `copy-${key}`,
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(link);
          status.textContent = "copied";
        } catch {
          status.textContent = "press Ctrl+C to copy";
        }
      },
    },
    "Copy",
  );
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, label),
    h("td", {}, input),
    h("td", { class: "nowrap" }, copy, " ", h("a", { href: link, target: "_blank", rel: "noopener", class: "button small", "data-role": key }, openLabel), status),
  );
}

function createdPanel(created, types) {
  const rows = created.seats.map((seat) =>
    seat.token === null
      ? h("tr", { "data-role": `bot-${seat.seat}` }, h("th", { scope: "row" }, `Seat ${seat.seat + 1}: ${seat.name}`),
          h("td", { colspan: "2" }, `${botLabel(seat.bot)}: the server plays this seat.`))
      : shareRow(`Seat ${seat.seat + 1}: ${seat.name}`, absoluteLink({ id: created.id, token: seat.token }), `seat-${seat.seat}`, "Play"),
  );
  rows.push(shareRow("Spectators", absoluteLink({ id: created.id }), "spectator", "Watch"));
  if (created.host_token) {
    rows.push(shareRow("Host (you): may cancel the game", absoluteLink({ id: created.id, token: created.host_token }), "host", "Manage"));
  }
  return h(
    "section",
    { class: "card created", "aria-labelledby": "created-title" },
    h("h2", { id: "created-title" }, `${typeTitle(types, created.type)} created`),
    h(
      "p",
      { class: "hint" },
      "Send each player their own seat link: it carries the seat's secret token, which the server shows only this once. ",
      "The spectator link shows the game without any secrets. ",
      "Keep the host link to yourself: it can cancel the game.",
    ),
    created.time_control && created.time_control.kind !== "none" ? h("p", { class: "hint" }, `Time limit: ${describeTimeControl(created.time_control)}.`) : null,
    h("table", { class: "links" }, h("tbody", {}, rows)),
  );
}

/** The time limit of a new game: none, a deadline per turn, or a clock per player
 * (minutes plus seconds added for each turn), and an optional allowance for the
 * setup steps.  `value()` is the API's `time_control`, or null for none. */
function timeControlChoice() {
  const number = (id, value, label, extra = {}) =>
    h("input", { type: "number", id, name: id, value, min: "0", step: "1", required: true, inputmode: "numeric", "aria-label": label, ...extra });
  const turnSeconds = number("turn-seconds", "60", "Seconds per turn", { min: "1" });
  const clockMinutes = number("clock-minutes", "10", "Minutes per player", { min: "0.1", step: "any", inputmode: "decimal" });
  const clockIncrement = number("clock-increment", "5", "Seconds added per turn");
  const setupSeconds = number("setup-seconds", "", "Seconds for the setup steps (optional)", { min: "1", required: false, placeholder: "–" });
  const radio = (kind, checked) => h("input", { type: "radio", name: "time-kind", id: `time-${kind}`, value: kind, checked });
  const kinds = { none: radio("none", true), per_turn: radio("per_turn", false), clock: radio("clock", false) };
  const chosen = () => Object.keys(kinds).find((k) => kinds[k].checked) || "none";
  const sync = () => {
    const kind = chosen();
    turnSeconds.disabled = kind !== "per_turn";
    clockMinutes.disabled = clockIncrement.disabled = kind !== "clock";
    setupSeconds.disabled = kind === "none";
  };
  for (const r of Object.values(kinds)) r.addEventListener("change", sync);
  const el = h(
    "fieldset",
    { class: "time-choice" },
    h("legend", {}, "Time limit"),
    h("div", { class: "choice" }, kinds.none, h("label", { for: "time-none" }, "None")),
    h("div", { class: "choice" }, kinds.per_turn, h("label", { for: "time-per_turn" }, "Per turn:"), turnSeconds, h("span", {}, "seconds")),
    h(
      "div",
      { class: "choice" },
      kinds.clock,
      h("label", { for: "time-clock" }, "Clock:"),
      clockMinutes,
      h("span", {}, "min +"),
      clockIncrement,
      h("span", {}, "s per turn"),
    ),
    h("div", { class: "choice" }, h("label", { for: "setup-seconds" }, "Setup steps:"), setupSeconds, h("span", { class: "hint" }, "seconds (optional)")),
  );
  sync();
  return {
    el,
    value() {
      const kind = chosen();
      if (kind === "none") return null;
      const out = kind === "per_turn"
        ? { kind, seconds: Math.round(Number(turnSeconds.value)) }
        : { kind, initial_seconds: Math.round(Number(clockMinutes.value) * 60), increment_seconds: Math.round(Number(clockIncrement.value) || 0) };
      if (setupSeconds.value.trim()) out.setup_seconds = Math.round(Number(setupSeconds.value));
      return out;
    },
  };
}

function gameRow(game, types) {
  const players = game.players.map((p) => (p.bot ? `${p.name} (computer)` : p.name)).join(", ");
  const updated = new Date(game.updated_at);
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, typeTitle(types, game.type)),
    h("td", {}, players),
    h("td", {}, h("span", { class: `pill status-${game.status}` }, game.status.replace("_", " "))),
    h("td", { class: "num" }, String(game.version)),
    h("td", {}, h("time", { datetime: game.updated_at }, updated.toLocaleString())),
    h(
      "td",
      { class: "nowrap" },
      h("a", { href: fragment({ id: game.id }), class: "button small", "aria-label": `Watch game ${game.id}` }, "Watch"),
      " ",
      h("a", { href: fragment({ id: game.id, replay: true }), class: "button small secondary", "aria-label": `Replay game ${game.id}` }, "Replay"),
    ),
  );
}

/** Draw the lobby into `root`. */
export async function renderLobby(root) {
  // The game types, their titles and player ranges come from the server (GET /v1/game-types).
  let types = [];
  const problem = h("p", { class: "problem", role: "alert", hidden: true });
  const createdSlot = h("div");
  const typeChoice = h("fieldset", { class: "types" }, h("legend", {}, "Game"));
  const namesList = h("ol", { class: "names" });
  const addButton = h("button", { type: "button", class: "small secondary", "data-key": "add-player" }, "Add a player");
  const seedInput = h("input", { type: "text", id: "seed", name: "seed", maxlength: "200", autocomplete: "off", placeholder: "random" });
  const openDealInput = h("input", { type: "checkbox", id: "open-deal", name: "open_deal" });
  const submit = h("button", { type: "submit", class: "primary", "data-key": "create" }, "Create game");
  const time = timeControlChoice();
  const intro = h("p", {}, HOW_TO);

  const chosenType = () => {
    const checked = typeChoice.querySelector("input:checked");
    return types.find((t) => checked && t.type === checked.value) || types[0];
  };

  function nameRow(value) {
    const index = namesList.children.length;
    const input = h("input", {
      type: "text",
      name: "player",
      required: true,
      maxlength: "40",
      value,
      "aria-label": `Player ${index + 1} name`,
      autocomplete: "off",
    });
    const remove = h("button", { type: "button", class: "small secondary", "aria-label": `Remove player ${index + 1}` }, "Remove");
    const playedBy = h("select", { name: "played-by", "aria-label": `Player ${index + 1} played by` });
    const li = h("li", {}, input, " ", playedBy, " ", remove);
    remove.addEventListener("click", () => {
      li.remove();
      syncNames();
    });
    return li;
  }

  function syncNames() {
    const t = chosenType();
    if (!t) return;
    while (namesList.children.length < t.min_players) {
      namesList.append(nameRow(DEFAULT_NAMES[namesList.children.length] || `Player ${namesList.children.length + 1}`));
    }
    while (namesList.children.length > t.max_players) namesList.lastElementChild.remove();
    const bots = t.bots || [];
    [...namesList.children].forEach((li, i) => {
      li.querySelector("input").setAttribute("aria-label", `Player ${i + 1} name`);
      // a person, or one of the server's bots for this game type
      const playedBy = li.querySelector("select");
      const was = playedBy.value;
      playedBy.replaceChildren(h("option", { value: "" }, "A person"), ...bots.map((b) => h("option", { value: b }, botLabel(b))));
      playedBy.value = bots.includes(was) ? was : "";
      playedBy.setAttribute("aria-label", `Player ${i + 1} played by`);
      playedBy.hidden = bots.length === 0;
      const remove = li.querySelector("button");
      remove.setAttribute("aria-label", `Remove player ${i + 1}`);
      remove.disabled = namesList.children.length <= t.min_players;
    });
    addButton.disabled = namesList.children.length >= t.max_players;
    computerButton.hidden = bots.length === 0;
  }

  // "Play against the computer": the first seat is yours, the server's bots play the others.
  const computerButton = h("button", { type: "button", class: "small secondary", "data-key": "play-computer" }, "Play against the computer");
  computerButton.addEventListener("click", () => {
    const bots = chosenType().bots || [];
    const level = bots.includes(DEFAULT_BOT) ? DEFAULT_BOT : bots[bots.length - 1];
    [...namesList.querySelectorAll("select")].forEach((select, i) => {
      select.value = i === 0 ? "" : level;
    });
  });

  addButton.addEventListener("click", () => {
    namesList.append(nameRow(DEFAULT_NAMES[namesList.children.length] || `Player ${namesList.children.length + 1}`));
    syncNames();
    namesList.lastElementChild.querySelector("input").focus();
  });

  const form = h(
    "form",
    { class: "card new-game", "aria-labelledby": "new-title" },
    h("h2", { id: "new-title" }, "New game"),
    typeChoice,
    h("fieldset", {}, h("legend", {}, "Players (in seat order)"), namesList, addButton, " ", computerButton),
    time.el,
    h("details", { class: "more" }, h("summary", {}, "More options"), h("label", { for: "seed" }, "Seed (optional, mixed with the server's secret) "), seedInput,
      h("label", { for: "open-deal" }, openDealInput, " Open deal: the seed alone deals (anyone who knows it knows every hand)")),
    h("div", { class: "row" }, submit),
    problem,
  );

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    problem.hidden = true;
    const players = [...namesList.children].map((li) => {
      const name = li.querySelector("input").value.trim();
      const bot = li.querySelector("select").value;
      return bot ? { name, bot } : { name };
    });
    const body = { type: chosenType().type, players };
    if (seedInput.value.trim()) body.seed = seedInput.value.trim();
    if (openDealInput.checked) body.open_deal = true;
    const timeControl = time.value();
    if (timeControl) body.time_control = timeControl;
    submit.disabled = true;
    try {
      const created = await api.createGame(body);
      if (timeControl && !created.time_control) created.time_control = timeControl;
      replaceChildren(createdSlot, createdPanel(created, types));
      createdSlot.querySelector("h2").setAttribute("tabindex", "-1");
      createdSlot.querySelector("h2").focus();
      loadGames(true);
    } catch (err) {
      problem.textContent = err.detail || String(err);
      problem.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });

  // Recent games.
  const filterType = h("select", { id: "filter-type", "aria-label": "Game type" }, h("option", { value: "" }, "All games"));
  const filterStatus = h(
    "select",
    { id: "filter-status", "aria-label": "Status" },
    h("option", { value: "" }, "Any status"),
    ["setup", "playing", "last_round", "finished", "cancelled"].map((s) => h("option", { value: s }, s.replace("_", " "))),
  );
  const tbody = h("tbody");
  const more = h("button", { type: "button", class: "secondary", hidden: true, "data-key": "more-games" }, "Show more");
  const refresh = h("button", { type: "button", class: "secondary small", "data-key": "refresh-games" }, "Refresh");
  const empty = h("p", { class: "hint", hidden: true }, "No games yet.");
  let cursor = null;

  async function loadGames(fresh) {
    if (fresh) cursor = null;
    try {
      const page = await api.listGames({ type: filterType.value, status: filterStatus.value, cursor });
      if (fresh) tbody.replaceChildren();
      tbody.append(...page.games.map((g) => gameRow(g, types)));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      empty.hidden = tbody.children.length > 0;
    } catch (err) {
      problem.textContent = err.detail || String(err);
      problem.hidden = false;
    }
  }
  filterType.addEventListener("change", () => loadGames(true));
  filterStatus.addEventListener("change", () => loadGames(true));
  more.addEventListener("click", () => loadGames(false));
  refresh.addEventListener("click", () => loadGames(true));

  const list = h(
    "section",
    { class: "card games", "aria-labelledby": "games-title" },
    h("div", { class: "row spread" }, h("h2", { id: "games-title" }, "Recent games"), h("div", { class: "row" }, filterType, filterStatus, refresh)),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "game-list" },
        h("thead", {}, h("tr", {}, ["Game", "Players", "Status", "Events", "Last move", ""].map((t) => h("th", { scope: "col" }, t)))),
        tbody,
      ),
    ),
    empty,
    more,
  );

  replaceChildren(
    root,
    h(
      "div",
      { class: "lobby" },
      h("div", { class: "intro" }, h("h1", {}, "Play San Francisco"), intro),
      h("div", { class: "lobby-grid" }, h("div", {}, form, createdSlot), list),
    ),
  );

  try {
    types = (await api.gameTypes()).types;
  } catch (err) {
    problem.textContent = `The game types could not be loaded: ${err.detail || String(err)}`;
    problem.hidden = false;
    submit.disabled = true;
  }
  if (types.length) intro.textContent = `${listOf(types.map((t) => t.title))}, in the browser. ${HOW_TO}`;
  types.forEach((t, i) => {
    const id = `type-${t.type}`;
    const radio = h("input", { type: "radio", name: "type", id, value: t.type, checked: i === 0 });
    radio.addEventListener("change", syncNames);
    typeChoice.append(
      h("div", { class: "choice" }, radio, h("label", { for: id }, t.title, h("span", { class: "hint" }, ` ${t.min_players}–${t.max_players} players`))),
    );
    filterType.append(h("option", { value: t.type }, t.title));
  });
  syncNames();
  await loadGames(true);
}

