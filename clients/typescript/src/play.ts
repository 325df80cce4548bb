// Plays one whole game against a live server with the typed client, every seat
// sending its first legal action (routes first), then checks the record.
//   node build/play.js http://127.0.0.1:8000 [ttr-sf|cable-car]
// Prints one JSON line: the game id, its final version, the winners and the audit verdict.
import { CableCarClient, type Action, type Schemas } from "./client.js";

async function main(): Promise<void> {
  const [baseUrl, gameType = "ttr-sf"] = process.argv.slice(2);
  if (!baseUrl) throw new Error("usage: node build/play.js BASE_URL [ttr-sf|cable-car]");
  const spectator = new CableCarClient(baseUrl);
  const body: Schemas["CreateGame"] =
    gameType === "cable-car"
      ? { type: "cable-car", players: [{ name: "Ada" }, { name: "Bo" }], seed: "ts-client" }
      : { type: "ttr-sf", players: [{ name: "Ada" }, { name: "Bo" }], seed: "ts-client" };
  // a creation key without an organiser token is a capability: a random UUID (at least 32 characters)
  const created = await spectator.createGame(body, crypto.randomUUID());
  // every seat here is a person's (a bot seat's token is null: the server plays it)
  const seats = new Map(
    created.seats.flatMap((s) => (s.token === null ? [] : [[s.seat, spectator.as(s.token)] as const])),
  );

  let view = await spectator.game(created.id);
  for (let step = 0; view.status !== "finished"; step++) {
    if (step > 2000) throw new Error(`game ${created.id} did not finish`);
    const seat = view.active_seats[0];
    const client = seat === undefined ? undefined : seats.get(seat);
    if (!client) throw new Error(`no seat to act in ${JSON.stringify(view.active_seats)}`);
    const page = await client.legalActions(created.id, undefined, 300);
    const claims = page.actions.filter((a: Action) => a.type === "claim_route");
    const action = claims[0] ?? page.actions[0];
    if (!action) throw new Error("an active seat with no legal action");
    await client.act(created.id, action, `${created.id}-${view.version}-${seat}`);
    view = await spectator.game(created.id);
  }
  const record = await spectator.exportGame(created.id);
  const audit = await spectator.audit(created.id);
  const winners = view.result?.winners ?? [];
  console.log(JSON.stringify({
    id: created.id, type: view.type, version: view.version, events: record.events.length, winners, audit: audit.ok,
  }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
