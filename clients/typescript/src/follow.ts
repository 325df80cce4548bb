// Prints a game's events as they happen, one JSON line each, then its end:
//   node build/follow.js http://127.0.0.1:8000 GAME_ID [SEAT_TOKEN]
import { followEvents } from "./stream.js";

async function main(): Promise<void> {
  const [baseUrl, gameId, token] = process.argv.slice(2);
  if (!baseUrl || !gameId) throw new Error("usage: node build/follow.js BASE_URL GAME_ID [SEAT_TOKEN]");
  for await (const message of followEvents(baseUrl, gameId, token ? { token } : {})) {
    const line = message.kind === "event"
      ? { seq: message.event.seq, type: message.event.type }
      : { end: message.end.status, version: message.end.version };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
