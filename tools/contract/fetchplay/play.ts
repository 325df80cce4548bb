// fetchplay plays one whole game of each type against a live server through the TypeScript client that
// openapi-generator's `typescript-fetch` target writes from service/openapi.yaml with its DEFAULT options
// (issue 38: camelCase models, the runtime's FromJSON/ToJSON in between), then reads each game's event page,
// stream, export (JSON and NDJSON) and audit through it.
//
// scripts/check-generators.sh copies this file beside the generated sources (as play.ts), compiles both with
// tsc --strict and runs the result with node (its global fetch); it uses only the generated client.
//
//     node play.js http://127.0.0.1:8000 [max-moves]
//
// Policy: claim_route, lay_tiles or roll when legal, else the first legal action (never resign), as axiosplay.
// Exit status 0 only when both games reached `finished` and every read agreed with them.
import { ActionRequest, ActionsApi, AuditApi, Configuration, EventsApi, GamesApi, ResponseError } from "./index";

const base = process.argv[2];
const maxMoves = Number(process.argv[3] ?? "3000");
if (!base || !Number.isInteger(maxMoves)) {
  console.error("usage: node play.js BASE_URL [max-moves]");
  process.exit(2);
}
const anyone = new Configuration({ basePath: base });
const as = (token: string | null) => new Configuration({ basePath: base, accessToken: token ?? undefined });

function choose(actions: ActionRequest[]): ActionRequest {
  const move = actions.find((a) => a.type === "claim_route" || a.type === "lay_tiles" || a.type === "roll")
    ?? actions.find((a) => a.type !== "resign");
  if (move === undefined) throw new Error("no legal action but resign for an active seat");
  return move;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

async function play(type: "cable-car" | "ttr-sf"): Promise<number> {
  const created = await new GamesApi(anyone).createGame(
    { createGame: { type, players: [{ name: "Ada" }, { name: "Bo" }], seed: "fetchplay" } });
  // every seat's list once: a seat that may not move now holds only `resign`
  for (const seat of created.seats) await new ActionsApi(as(seat.token)).getLegalActions({ id: created.id });
  let moves = 0;
  for (;;) {
    const view = await new GamesApi(anyone).getGame({ id: created.id });
    if (view.status === "finished") break;
    check(moves < maxMoves, `not finished after ${maxMoves} moves`);
    const seat = view.activeSeats[0];
    check(seat !== undefined, `status ${view.status} with no active seat`);
    const actions = new ActionsApi(as(created.seats[seat!]!.token));
    const legal = await actions.getLegalActions({ id: created.id });
    await actions.postAction({ id: created.id, actionRequest: choose(legal.actions) });
    moves += 1;
  }
  const final = await new GamesApi(anyone).getGame({ id: created.id });
  check(final.result != null, "finished with no result");
  // the event page: each entry with the game's version and whose turn it is (nobody's: it is over)
  const events = new EventsApi(anyone);
  const page = await events.listEvents({ id: created.id, limit: 3 });
  check(page.events.map((e) => e.seq).join() === "1,2,3", "event page: not events 1 to 3");
  check(page.events.every((e) => e.version === final.version && e.activeSeats?.length === 0),
    "event page: entries without the game's version and active_seats");
  // a finished game's stream ends by itself: the view first, the events, then `end`
  const stream = await events.streamEvents({ id: created.id, after: final.version - 2 });
  check(stream.includes("event: view\n") && stream.includes("event: end\n")
    && stream.indexOf("event: view") < stream.indexOf(`id: ${final.version}\n`), "stream: not view, events, end");
  const audits = new AuditApi(anyone);
  const record = await audits.exportGame({ id: created.id });
  check(record.events.length === final.version && record.result != null, "export: not every event");
  const lines = (await (await audits.exportGameNdjson({ id: created.id })).text()).trim().split("\n");
  check(lines.length === final.version + 1 && lines[0]!.includes('"header"'), "export NDJSON: not header and events");
  const audit = await audits.auditGame({ id: created.id });
  check(audit.ok, `audit: ${audit.problems.join("; ")}`);
  return moves;
}

(async () => {
  for (const type of ["cable-car", "ttr-sf"] as const) {
    try {
      const moves = await play(type);
      console.log(`typescript-fetch (default options): played a whole ${type} game, ${moves} moves, `
        + "and read its events, stream, export (JSON and NDJSON) and audit through the generated client");
    } catch (e) {
      const answer = e instanceof ResponseError ? ` (${e.response.status} ${await e.response.text()})` : "";
      console.error(`typescript-fetch (default options): ${type}: ${String(e)}${answer}`);
      process.exit(1);
    }
  }
})();
