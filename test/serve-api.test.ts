/**
 * The serve API's own coordination, over a real library and index (no HTTP): what the server's
 * start counts, and what a page asking while it counts gets.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Recall } from "../src/index.js";
import { ServeApi } from "../src/serve/api.js";
import { Router } from "../src/serve/router.js";
import type { ActivityAnswer } from "../src/serve/wire.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";

let agent: AgentDir;
let recall: Recall;

beforeAll(async () => {
  agent = makeAgentDir();
  recall = Recall.open({ env: { ...agent.env, TZ: "UTC" }, cwd: agent.root });
  await recall.sync();
});

afterAll(() => {
  recall.close();
  agent.cleanup();
});

/** A router with the API's routes, and a GET of one of them. */
function serving(caughtUp: Promise<void>) {
  const router = new Router();
  new ServeApi(recall, {
    info: {
      version: "test",
      folder: agent.root,
      project: agent.root,
      matchModes: ["words"],
      remotes: [],
      remote: null,
      sessionsNote: null,
    },
    followed: () => true,
    caughtUp,
  }).register(router);
  return async (path: string) => {
    const url = new URL(path, "http://127.0.0.1");
    const raw = { method: "GET" } as IncomingMessage;
    const answer = await router.answer(raw, url, {} as ServerResponse);
    if (answer?.kind !== "json") throw new Error(`${path}: no JSON answer`);
    return answer.value;
  };
}

describe("serve's activity right after its start", () => {
  it("a page asking for all the activity while the start counts it gets that count, not a second one", async () => {
    let caughtUp!: () => void;
    const get = serving(new Promise<void>((resolve) => (caughtUp = resolve)));
    const count = vi.spyOn(recall, "stats");
    try {
      await get("/api/info");
      const asked = get("/api/activity") as Promise<ActivityAnswer>;
      caughtUp();
      const first = await asked;
      expect(count).toHaveBeenCalledTimes(1);
      expect(first.totals.sessions).toBeGreaterThan(2);
      // Once that count is done, a page's call counts again (from the kept facts), and a window
      // or scope is always its own count.
      const again = (await get("/api/activity")) as ActivityAnswer;
      expect(count).toHaveBeenCalledTimes(2);
      expect(again).toEqual(first);
      await get("/api/activity?since=30");
      expect(count).toHaveBeenCalledTimes(3);
    } finally {
      count.mockRestore();
    }
  });
});
