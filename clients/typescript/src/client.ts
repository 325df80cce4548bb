// A small typed client of the Cable Car API: every body and answer is typed by
// src/schema.d.ts, which openapi-typescript generates from openapi.yaml
// (scripts/generate-clients.sh). Needs only `fetch` (Node.js 18+, browsers).
import type { components } from "./schema.js";

export type Schemas = components["schemas"];
export type GameView = Schemas["GameView"];
export type Action = Schemas["ActionRequest"];
export type Problem = Schemas["Problem"];

/** A refusal of the server: its problem+json body, typed. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
  }
}

export class CableCarClient {
  /** `token`: a seat, host or organiser token; without one the client is a spectator. */
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  /** The same server, another token. */
  as(token: string): CableCarClient {
    return new CableCarClient(this.baseUrl, token);
  }

  private async call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const sent: Record<string, string> = { Accept: "application/json", ...headers };
    if (this.token) sent.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) sent["Content-Type"] = "application/json";
    const resp = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data: unknown = await resp.json();
    if (!resp.ok) throw new ProblemError(data as Problem);
    return data as T;
  }

  gameTypes(): Promise<Schemas["GameTypes"]> {
    return this.call("GET", "/v1/game-types");
  }

  createGame(body: Schemas["CreateGame"], idempotencyKey?: string): Promise<Schemas["GameCreated"]> {
    return this.call("POST", "/v1/games", body, idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {});
  }

  game(id: string): Promise<GameView> {
    return this.call("GET", `/v1/games/${encodeURIComponent(id)}`);
  }

  legalActions(id: string, cursor?: string, limit = 1000): Promise<Schemas["LegalActions"]> {
    const q = new URLSearchParams({ limit: String(limit) });
    if (cursor !== undefined) q.set("cursor", cursor);
    return this.call("GET", `/v1/games/${encodeURIComponent(id)}/legal-actions?${q}`);
  }

  /** `n` legal actions drawn uniformly from the whole list (the same for the same `seed` and version). */
  sampleLegalActions(id: string, n: number, seed?: string): Promise<Schemas["LegalActions"]> {
    const q = new URLSearchParams({ sample: String(n) });
    if (seed !== undefined) q.set("seed", seed);
    return this.call("GET", `/v1/games/${encodeURIComponent(id)}/legal-actions?${q}`);
  }

  act(id: string, action: Action, idempotencyKey: string): Promise<Schemas["ActionResult"]> {
    return this.call("POST", `/v1/games/${encodeURIComponent(id)}/actions`, action, {
      "Idempotency-Key": idempotencyKey,
    });
  }

  events(id: string, cursor?: string): Promise<Schemas["EventsPage"]> {
    const q = cursor === undefined ? "" : `?${new URLSearchParams({ cursor })}`;
    return this.call("GET", `/v1/games/${encodeURIComponent(id)}/events${q}`);
  }

  exportGame(id: string): Promise<Schemas["Export"]> {
    return this.call("GET", `/v1/games/${encodeURIComponent(id)}/export`);
  }

  audit(id: string): Promise<Schemas["Audit"]> {
    return this.call("GET", `/v1/games/${encodeURIComponent(id)}/audit`);
  }
}
