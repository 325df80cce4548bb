// axiosplay plays one whole game of each type against a live server through the TypeScript client that
// openapi-generator's `typescript-axios` target writes from service/openapi.yaml with its DEFAULT options
// (issue 38), then reads each game's event page, stream, export and audit through it.
//
// scripts/check-generators.sh copies this file beside the generated sources (as play.ts), compiles both with
// tsc --strict and runs the result with node; it uses only the generated client (and its axios).
//
//     node play.js http://127.0.0.1:8000 [max-moves]
//
// Policy: claim_route, lay_tiles or roll when legal, else the first legal action (never resign).
// Exit status 0 only when both games reached `finished` and every read agreed with them.
import { ActionRequest, ActionsApi, AuditApi, Configuration, CreateGame, EventsApi, GamesApi } from "./index";

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
  const body: CreateGame = { type, players: [{ name: "Ada" }, { name: "Bo" }], seed: "axiosplay" };
  const created = (await new GamesApi(anyone).createGame(body)).data;
  // every seat's list once: a seat that may not move now holds only `resign`
  for (const seat of created.seats) await new ActionsApi(as(seat.token)).getLegalActions(created.id);
  let moves = 0;
  for (;;) {
    const view = (await new GamesApi(anyone).getGame(created.id)).data;
    if (view.status === "finished") break;
    check(moves < maxMoves, `not finished after ${maxMoves} moves`);
    const seat = view.active_seats[0];
    check(seat !== undefined, `status ${view.status} with no active seat`);
    const actions = new ActionsApi(as(created.seats[seat!]!.token));
    const legal = (await actions.getLegalActions(created.id)).data;
    await actions.postAction(created.id, choose(legal.actions));
    moves += 1;
  }
  const final = (await new GamesApi(anyone).getGame(created.id)).data;
  // the event page: each entry with the game's version and whose turn it is (nobody's: it is over)
  const events = new EventsApi(anyone);
  const page = (await events.listEvents(created.id, undefined, undefined, 3)).data;
  check(page.events.map((e) => e.seq).join() === "1,2,3", "event page: not events 1 to 3");
  check(page.events.every((e) => e.version === final.version && e.active_seats?.length === 0),
    "event page: entries without the game's version and active_seats");
  // a finished game's stream ends by itself: the view first, the events, then `end`
  const stream = String((await events.streamEvents(created.id, final.version - 2)).data);
  check(stream.includes("event: view\n") && stream.includes("event: end\n")
    && stream.indexOf("event: view") < stream.indexOf(`id: ${final.version}\n`), "stream: not view, events, end");
  const record = (await new AuditApi(anyone).exportGame(created.id)).data;
  check(record.events.length === final.version, "export: not every event");
  const audit = (await new AuditApi(anyone).auditGame(created.id)).data;
  check(audit.ok, `audit: ${audit.problems.join("; ")}`);
  return moves;
}

(async () => {
  for (const type of ["cable-car", "ttr-sf"] as const) {
    try {
      const moves = await play(type);
      console.log(`typescript-axios (default options): played a whole ${type} game, ${moves} moves, `
        + "and read its events, stream, export and audit through the generated client");
    } catch (e) {
      const answer = (e as { response?: { status?: number; data?: unknown } }).response;
      console.error(`typescript-axios (default options): ${type}: ${String(e)}`
        + (answer ? ` (${answer.status} ${JSON.stringify(answer.data)})` : ""));
      process.exit(1);
    }
  }
})();
