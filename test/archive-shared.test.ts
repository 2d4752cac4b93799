/**
 * An archive shared with other machines and people, on a real OpenSearch (scripts/opensearch.sh):
 * a deletion on one machine never takes out a session another machine still holds (holders.ts),
 * and an index deleted or replaced by someone else is noticed and filled again.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLocations } from "../src/locations.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { FIXTURE_FILES, FIXTURE_SESSIONS_DIR } from "./helpers/fixture-files.js";
import {
  engineApi,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
} from "./helpers/opensearch.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

let url = "";
const api = (path: string, init?: { method?: string; body?: unknown }) =>
  engineApi(url, path, init);

/** The documents of `index` (after a refresh), by id; none when it does not exist. */
async function documentsOf(index: string): Promise<Map<string, any>> {
  await api(`/${index}/_refresh`, { method: "POST" });
  const found = await api(`/${index}/_search`, { body: { size: 1000, query: { match_all: {} } } });
  return new Map((found.hits?.hits ?? []).map((h: any) => [h._id, h._source]));
}

/**
 * A laptop (with the fixtures' sessions) and a desktop (with none) that share the remote "team" at
 * `index`, made before the enclosing block's tests and removed after them.
 */
function twoMachines(
  index: string,
  ...remoteArgs: string[]
): { laptop: AgentDir; desktop: AgentDir } {
  const machines = {} as { laptop: AgentDir; desktop: AgentDir };
  beforeAll(async () => {
    machines.laptop = makeAgentDir();
    machines.desktop = makeAgentDir({ withFixtures: false });
    for (const machine of ["laptop", "desktop"] as const) {
      const added = await runRecall(
        [
          "remote",
          "add",
          "team",
          url,
          "--index",
          index,
          ...remoteArgs,
          "--machine",
          machine,
          "--user",
          "ada",
        ],
        { env: machines[machine].env },
      );
      expect(added.stderr).toBe("");
    }
  });
  afterAll(() => {
    machines.laptop?.cleanup();
    machines.desktop?.cleanup();
  });
  return machines;
}

/** The last JSON line of a push, which must succeed without a word on stderr. */
async function pushed(agent: AgentDir, ...args: string[]): Promise<Record<string, any>> {
  const run = await runRecall(["push", "--remote", "team", "--json", ...args], { env: agent.env });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return jsonLines(run.stdout).at(-1)!;
}

describe.skipIf(openSearchMissing)(
  needsOpenSearch("an archive shared with other machines, on a real OpenSearch"),
  () => {
    beforeAll(async () => {
      url = await openSearchUrl();
    }, 300_000);

    describe("a session two machines hold", () => {
      const INDEX = "recall-holders-test";
      const session = "01a0f755-f200-7250-a372-48336bf4923d";
      const machines = twoMachines(INDEX, "--keep-files");
      const ofSession = async () =>
        [...(await documentsOf(INDEX)).values()].filter((d) => d.session_id === session).length;
      const kept = async () => (await documentsOf(`${INDEX}-files`)).has(session);
      const holders = async () =>
        [...(await documentsOf(`${INDEX}-holders`)).values()]
          .filter((h) => h.session_id === session)
          .map((h) => h.machine)
          .sort();

      it("stays in the archive while either machine holds it, and goes with the last", async () => {
        const { laptop, desktop } = machines;
        expect(await pushed(laptop)).toMatchObject({ messages: expect.any(Number), failed: [] });
        const messages = await ofSession();
        expect(messages).toBeGreaterThan(0);
        // The desktop pulls the session, so both hold it, and pushes it as its own too.
        const pull = await runRecall(["pull", "--remote", "team", session], { env: desktop.env });
        expect(pull.stderr).toBe("");
        expect(pull.code).toBe(0);
        expect(await pushed(desktop)).toMatchObject({ sessions: 1 });
        expect(await holders()).toEqual(["desktop", "laptop"]);

        // The laptop deletes its copy: its push takes out its hold, not the session.
        rmSync(join(laptop.sessionsDir, FIXTURE_FILES.s4.replace(FIXTURE_SESSIONS_DIR, "")));
        expect(await pushed(laptop)).toMatchObject({ removed: 1, deleted: 0 });
        expect(await ofSession()).toBe(messages);
        expect(await kept()).toBe(true);
        expect(await holders()).toEqual(["desktop"]);
        expect(await pushed(desktop)).toMatchObject({ messages: 0, deleted: 0 });
        expect(await ofSession()).toBe(messages);

        // The desktop deletes it too: now it goes, kept file and all.
        const [folder] = readdirSync(desktop.sessionsDir);
        const [file] = readdirSync(join(desktop.sessionsDir, folder!));
        rmSync(join(desktop.sessionsDir, folder!, file!));
        expect(await pushed(desktop)).toMatchObject({ removed: 1, deleted: messages + 1 });
        expect(await ofSession()).toBe(0);
        expect(await kept()).toBe(false);
        expect(await holders()).toEqual([]);
      });
    });

    describe("an index someone else deleted or replaced", () => {
      const INDEX = "recall-identity-test";
      const machines = twoMachines(INDEX);
      const sameIndex = async (agent: AgentDir) => {
        const tested = await runRecall(["remote", "test", "team", "--json"], { env: agent.env });
        return {
          code: tested.code,
          check: jsonLines(tested.stdout).find((c) => c.check === "same index"),
        };
      };

      it("is noticed by remote test and filled again by the next push, whoever made it again", async () => {
        const { laptop, desktop } = machines;
        const first = await pushed(laptop);
        const messages = first.messages as number;
        expect(messages).toBeGreaterThan(10);
        expect((await documentsOf(INDEX)).size).toBe(messages);
        expect(await sameIndex(laptop)).toMatchObject({ code: 0, check: { ok: true } });

        // Deleted: remote test says so (its probe makes the index again, empty), the next push
        // sends everything.
        await api(`/${INDEX}-v1`, { method: "DELETE" });
        expect(await sameIndex(laptop)).toMatchObject({
          code: 2,
          check: {
            ok: false,
            message: expect.stringMatching(
              /^recall-identity-test was deleted or replaced since this machine's last push/,
            ),
          },
        });
        expect(await pushed(laptop)).toMatchObject({ replaced: [INDEX], messages, unchanged: 0 });
        expect((await documentsOf(INDEX)).size).toBe(messages);
        expect(await pushed(laptop)).toMatchObject({ replaced: [], messages: 0 });
        expect(await sameIndex(laptop)).toMatchObject({ code: 0, check: { ok: true } });

        // Replaced: deleted, then made again by another machine's push (with its own sessions
        // only).
        await api(`/${INDEX}-v1`, { method: "DELETE" });
        await api(`/${INDEX}-holders-v1`, { method: "DELETE" });
        expect(await pushed(desktop)).toMatchObject({ messages: 0 });
        expect(await pushed(laptop)).toMatchObject({
          replaced: [INDEX, `${INDEX}-holders`],
          messages,
        });
        expect((await documentsOf(INDEX)).size).toBe(messages);
        expect((await documentsOf(`${INDEX}-holders`)).size).toBeGreaterThan(5);
      });

      it("watermarks of an earlier format send everything once, without an error", async () => {
        const { laptop } = machines;
        const dir = join(resolveLocations({ env: laptop.env }).cacheDir, "archive");
        const file = join(
          dir,
          readdirSync(dir).find((f) => f.startsWith("team-") && /^team-[^.]+\.json$/.test(f))!,
        );
        const saved = JSON.parse(readFileSync(file, "utf8"));
        writeFileSync(file, JSON.stringify({ format: 2, files: saved.files }));
        const again = await pushed(laptop);
        expect(again.messages).toBe((await documentsOf(INDEX)).size);
        expect(again).toMatchObject({ unchanged: 0, replaced: [] });
        expect(await pushed(laptop)).toMatchObject({ messages: 0 });
      });
    });
  },
);
