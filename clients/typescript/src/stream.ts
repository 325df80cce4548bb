// Following a game's live event stream (GET /v1/games/{id}/events/stream, Server-Sent Events) with `fetch`
// alone: messages are parsed as they arrive (the body is read chunk by chunk, never buffered to the end), a
// stream the server closes before the game's end is reopened with `Last-Event-ID`, so every event arrives once
// and in order, and the closing `end` message (the final status) ends the iteration. Node.js 18+ and browsers.
//
//   for await (const message of followEvents(baseUrl, gameId, { token })) {
//     if (message.kind === "event") console.log(message.event.seq, message.event.type);
//     else console.log("over:", message.end.status);
//   }
import type { components } from "./schema.js";

export type GameEvent = components["schemas"]["Event"];
export type StreamEnd = components["schemas"]["StreamEnd"];
export type StreamMessage = { kind: "event"; event: GameEvent } | { kind: "end"; end: StreamEnd };

export interface FollowOptions {
  /** a seat token sees its own secrets; without one the stream is a spectator's */
  token?: string;
  /** resume after this seq (the last event already seen) */
  after?: number;
  /** aborts the stream */
  signal?: AbortSignal;
  /** reconnections in a row without a new event before giving up (default 5) */
  maxReconnects?: number;
}

/** One SSE message: its `event:` name (default `message`), `id:` and `data:` lines joined. */
interface RawMessage {
  event: string;
  id?: string;
  data: string;
}

/** Splits a text/event-stream body into messages as its bytes arrive. */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<RawMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const message: RawMessage = { event: "message", data: "" };
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line === "" || line.startsWith(":")) continue; // a comment: keep-alive
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") message.event = text;
          else if (field === "id") message.id = text;
          else if (field === "data") data.push(text);
        }
        if (data.length) {
          message.data = data.join("\n");
          yield message;
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Every event of the game after `after`, live, then its end. */
export async function* followEvents(
  baseUrl: string,
  gameId: string,
  options: FollowOptions = {},
): AsyncGenerator<StreamMessage> {
  let last = options.after ?? 0;
  let quiet = 0;
  for (;;) {
    const headers: Record<string, string> = { Accept: "text/event-stream", "Last-Event-ID": String(last) };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const url = new URL(`/v1/games/${encodeURIComponent(gameId)}/events/stream`, baseUrl);
    const resp = await fetch(url, { headers, signal: options.signal });
    if (!resp.ok || !resp.body) {
      throw new Error(`stream of ${gameId}: HTTP ${resp.status} ${await resp.text()}`);
    }
    let progressed = false;
    for await (const message of sseMessages(resp.body)) {
      if (message.event === "end") {
        yield { kind: "end", end: JSON.parse(message.data) as StreamEnd };
        return;
      }
      if (message.event !== "message") continue; // a kind of message this client does not know
      const event = JSON.parse(message.data) as GameEvent;
      if (event.seq <= last) continue;
      last = event.seq;
      progressed = true;
      yield { kind: "event", event };
    }
    // closed before the end (the server's stream lifetime, a restart): reopen after the last event seen
    quiet = progressed ? 0 : quiet + 1;
    if (quiet > (options.maxReconnects ?? 5)) throw new Error(`stream of ${gameId}: closed ${quiet} times without news`);
    await new Promise((done) => setTimeout(done, progressed ? 0 : 500));
  }
}
