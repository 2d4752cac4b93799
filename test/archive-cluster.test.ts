/**
 * The archive on a real two-node OpenSearch cluster (`scripts/opensearch.sh start --nodes 2`), one
 * node killed with SIGKILL the moment a push sends its first bulk request: the push ends, nothing
 * lost, nothing duplicated (the archive holds exactly the documents a dry run lists, and every kept
 * file), and `search --remote` and `read --remote` answer from the node left.
 *
 * The remote talks to the cluster manager's node, through the test proxy (which kills the other
 * node before it passes the first bulk request on): with two nodes only one of them votes, so the
 * node that is killed is the one the cluster can lose.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { startArchiveProxy, type ArchiveProxy } from "./helpers/archive-proxy.js";
import { GENERATED_TOKEN, writeGeneratedSessions } from "./helpers/generated-sessions.js";
import { needsOpenSearch, openSearchMissing } from "./helpers/opensearch.js";
import { OPENSEARCH_SCRIPT } from "./helpers/opensearch-run.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const INDEX = "recall-cluster-test";
const SESSIONS = 100;
const MESSAGES = 30;

let dir = "";
let survivor = "";
let victimPid = 0;
let agent: AgentDir;
let proxy: ArchiveProxy;

function script(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(OPENSEARCH_SCRIPT, args, { timeout: 300_000 }, (error, stdout, stderr) => {
      if (error)
        reject(
          new Error(`scripts/opensearch.sh ${args[0]} failed: ${stderr.trim() || error.message}`),
        );
      else resolve(stdout.trim());
    });
  });
}

async function api(
  url: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return response.json();
}

/** Every document of an index on the node left (after a refresh), by id. */
async function everything(index: string): Promise<Map<string, unknown>> {
  await api(survivor, `/${index}/_refresh`, { method: "POST" });
  const found = await api(survivor, `/${index}/_search`, {
    body: { size: 10_000, track_total_hits: true, query: { match_all: {} } },
  });
  expect(found.hits.total.value).toBeLessThan(10_000);
  return new Map(found.hits.hits.map((h: any) => [h._id, h._source]));
}

describe.skipIf(openSearchMissing)(
  needsOpenSearch("the archive on a two-node cluster losing a node"),
  () => {
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "recall-opensearch-pair-"));
      const first = await script("start", "--dir", dir, "--nodes", "2");
      const manager = (await api(first, "/_cat/cluster_manager?format=json"))[0].node as string;
      const nodes = (await api(first, "/_nodes/http")).nodes as Record<
        string,
        { name: string; http: { publish_address: string } }
      >;
      survivor = `http://${Object.values(nodes).find((n) => n.name === manager)!.http.publish_address}`;
      const victim = Object.values(nodes).find((n) => n.name !== manager)!.name;
      victimPid = Number(readFileSync(join(dir, victim, "pid"), "utf8"));
      proxy = await startArchiveProxy(survivor);
      agent = makeAgentDir({ withFixtures: false });
      writeGeneratedSessions(agent, SESSIONS, MESSAGES);
      const added = await runRecall(
        [
          "remote",
          "add",
          "pair",
          proxy.url,
          "--index",
          INDEX,
          "--keep-files",
          "--machine",
          "laptop",
          "--user",
          "ada",
        ],
        { env: agent.env },
      );
      expect(added.stderr).toBe("");
    }, 300_000);
    afterAll(async () => {
      await proxy?.close();
      agent?.cleanup();
      if (dir) {
        await script("stop", "--dir", dir);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);

    it("a push while a node dies loses nothing and duplicates nothing; search and read answer from the node left", async () => {
      const dry = jsonLines(
        (await runRecall(["push", "--remote", "pair", "--dry-run", "--json"], { env: agent.env }))
          .stdout,
      );
      const expected = new Map(
        dry
          .filter((l) => l.type === "document")
          .map(({ type: _type, id, ...document }) => [id as string, document]),
      );
      expect(expected.size).toBe(SESSIONS * MESSAGES);

      // Once the push has made its indexes and both nodes hold a copy of every shard, the victim
      // dies.
      let killed = false;
      let copies: { node: string; prirep: string; state: string }[] = [];
      proxy.behaviour.beforeBulk = async () => {
        if (killed) return;
        killed = true;
        const health = await api(survivor, "/_cluster/health?wait_for_status=green&timeout=60s");
        expect(health.status).toBe("green");
        copies = await api(survivor, "/_cat/shards?format=json&h=index,node,prirep,state");
        process.kill(victimPid, "SIGKILL");
      };
      const pushed = await runRecall(["push", "--remote", "pair", "--json"], {
        env: agent.env,
        timeoutMs: 240_000,
      });
      expect(killed).toBe(true);
      expect(new Set(copies.filter((c) => c.state === "STARTED").map((c) => c.node)).size).toBe(2);
      expect(pushed.stderr).toBe("");
      expect(pushed.code).toBe(0);
      expect(jsonLines(pushed.stdout).at(-1)).toMatchObject({
        messages: SESSIONS * MESSAGES,
        files: SESSIONS,
        failed: [],
      });
      expect(proxy.bulkActions.length).toBeGreaterThan(1);
      expect((await api(survivor, "/_cat/nodes?format=json")).length).toBe(1);

      const archived = await everything(INDEX);
      expect(archived.size).toBe(expected.size);
      expect(archived).toEqual(expected);
      const files = await everything(`${INDEX}-files`);
      expect(files.size).toBe(SESSIONS);
      expect(JSON.stringify([...files.values()])).not.toContain(GENERATED_TOKEN);

      const found = await runRecall(
        ["search", "--remote", "pair", "gannet", "migration", "--json", "--limit", "20"],
        { env: agent.env },
      );
      expect(found.stderr).toBe("");
      const hits = jsonLines(found.stdout);
      expect(hits).toHaveLength(20);
      expect(new Set(hits.map((h) => h.id)).size).toBe(20);
      const read = jsonLines(
        (
          await runRecall(
            ["read", "--remote", "pair", hits[0]!.id as string, "--json", "--max-chars", "1000000"],
            { env: agent.env },
          )
        ).stdout,
      );
      expect(read.filter((l) => l.type === "message")).toHaveLength(MESSAGES);
      expect(
        jsonLines(
          (await runRecall(["push", "--remote", "pair", "--json"], { env: agent.env })).stdout,
        ).at(-1),
      ).toMatchObject({ messages: 0, unchanged: SESSIONS });
    }, 300_000);
  },
);
