/**
 * `recall push` killed with SIGKILL in the middle, on a real OpenSearch: the real CLI pushes a
 * generated set of sessions (several bulk requests, kept files too) through the test proxy, which
 * answers the first bulk request, then passes the next one to the engine and keeps its answer back.
 * Once the engine holds that request's documents, unacknowledged, the push is killed; sessions
 * change; a second push runs. The archive then holds exactly what one clean push of the same files
 * to a fresh index holds: the same ids, the same documents, the same kept files as `pull` reads
 * them (a kept file that grew is kept in two parts where the clean push sent it whole).
 */
import { spawn } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@opensearch-project/opensearch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keptContent, type KeptFile } from "../src/archive/kept-files.js";
import type { Remote } from "../src/archive/remotes.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { startArchiveProxy, type ArchiveProxy } from "./helpers/archive-proxy.js";
import { userMessage } from "./helpers/fixture-files.js";
import { GENERATED_TOKEN, writeGeneratedSessions } from "./helpers/generated-sessions.js";
import {
  engineApi,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
} from "./helpers/opensearch.js";
import { jsonLines, RECALL_BIN, runRecall } from "./helpers/run-cli.js";

const KILLED = "recall-kill-test";
const CLEAN = "recall-kill-clean";
const SESSIONS = 160;
const MESSAGES = 30;

let url = "";
let agent: AgentDir;
let proxy: ArchiveProxy;

const api = (path: string, init?: { method?: string; body?: unknown }) =>
  engineApi(url, path, init);

/** Every document of an index (after a refresh), by id, sorted by id. */
async function everything(index: string): Promise<[string, unknown][]> {
  await api(`/${index}/_refresh`, { method: "POST" });
  const found = await api(`/${index}/_search`, {
    body: {
      size: 10_000,
      track_total_hits: true,
      sort: [{ _id: "asc" }],
      query: { match_all: {} },
    },
  });
  expect(found.hits.total.value).toBeLessThan(10_000);
  return found.hits.hits.map((h: any) => [h._id, h._source]);
}

/** Each kept file of a remote's index, as `pull` reads it (kept-files.ts), by session id. */
async function keptFiles(
  index: string,
): Promise<
  Map<string, Omit<KeptFile, "part" | "from" | "end" | "generation" | "bytes" | "redactions">>
> {
  const client = new Client({ node: url });
  const remote = { index } as Remote;
  const firsts = (await everything(`${index}-files`))
    .map(([, doc]) => doc as KeptFile)
    .filter((doc) => doc.part === 0);
  const files = await Promise.all(
    firsts.map(async (first) => {
      const {
        part: _part,
        from: _from,
        end: _end,
        generation: _generation,
        bytes: _bytes,
        redactions: _redactions,
        ...file
      } = first;
      return [
        first.session_id,
        { ...file, content: await keptContent(client, remote, first) },
      ] as const;
    }),
  );
  await client.close();
  return new Map(files);
}

describe.skipIf(openSearchMissing)(
  needsOpenSearch("a push killed midway on a real OpenSearch"),
  () => {
    beforeAll(async () => {
      url = await openSearchUrl();
      proxy = await startArchiveProxy(url);
      agent = makeAgentDir({ withFixtures: false });
      writeGeneratedSessions(agent, SESSIONS, MESSAGES);
      for (const [name, target, index] of [
        ["killed", proxy.url, KILLED],
        ["clean", url, CLEAN],
      ]) {
        const added = await runRecall(
          [
            "remote",
            "add",
            name!,
            target!,
            "--index",
            index!,
            "--keep-files",
            "--machine",
            "laptop",
            "--user",
            "ada",
          ],
          { env: agent.env },
        );
        expect(added.stderr).toBe("");
      }
    }, 300_000);
    afterAll(async () => {
      await proxy?.close();
      agent?.cleanup();
    });

    it("a push killed after the engine took a bulk request it never acknowledged, run again, leaves the archive as one clean push", async () => {
      proxy.behaviour.answerBulks = 1;
      const child = spawn(process.execPath, [RECALL_BIN, "push", "--remote", "killed"], {
        env: agent.env,
        stdio: "ignore",
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on("exit", (_code, signal) => resolve(signal)),
      );
      const deadline = Date.now() + 120_000;
      while (proxy.heldBulks === 0) {
        if (Date.now() > deadline) throw new Error("the push never sent a second bulk request");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The engine has taken the held request (the proxy counts it once the engine answered it).
      const answered = proxy.bulkActions[0]!;
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      const [messages, files] = await Promise.all([
        everything(KILLED),
        everything(`${KILLED}-files`),
      ]);
      expect(proxy.bulkActions.length).toBe(2);
      expect(messages.length + files.length).toBeGreaterThan(answered);
      expect(messages.length).toBeLessThan(SESSIONS * MESSAGES);

      // The killed push counted the sessions of the first request as pushed, and no other, though
      // the engine holds documents of others.
      const stateDir = join(agent.agentDir, "cache", "recall", "archive");
      const state = readdirSync(stateDir).find(
        (name) => name.startsWith("killed-") && name.endsWith(".json"),
      )!;
      const acknowledged = Object.keys(
        JSON.parse(readFileSync(join(stateDir, state), "utf8")).files as object,
      );
      expect(acknowledged.length).toBeGreaterThan(1);
      expect(acknowledged.length).toBeLessThan(SESSIONS);
      const archivedSessions = new Set(
        messages.map(([, d]) => (d as { session_id: string }).session_id),
      );
      expect(archivedSessions.size).toBeGreaterThan(acknowledged.length);

      // Meanwhile two sessions pushed before the kill change: one grows, one is written anew.
      const [grown, rewritten] = acknowledged;
      appendFileSync(
        grown!,
        userMessage(
          "f0000001",
          "one more gannet after the kill",
          Date.parse("2026-10-11T00:00:00Z"),
        ),
      );
      writeFileSync(
        rewritten!,
        `${readFileSync(rewritten!, "utf8").split("\n").slice(0, 4).join("\n")}\n`,
      );

      proxy.behaviour.answerBulks = undefined;
      const again = await runRecall(["push", "--remote", "killed", "--json"], {
        env: agent.env,
        timeoutMs: 300_000,
      });
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expect(jsonLines(again.stdout).at(-1)!.unchanged).toBeGreaterThan(0);
      const clean = await runRecall(["push", "--remote", "clean", "--json"], {
        env: agent.env,
        timeoutMs: 300_000,
      });
      expect(clean.code).toBe(0);
      expect(jsonLines(clean.stdout).at(-1)).toMatchObject({
        unchanged: 0,
        sessions: SESSIONS,
        files: SESSIONS,
      });

      const [killedMessages, cleanMessages] = await Promise.all([
        everything(KILLED),
        everything(CLEAN),
      ]);
      expect(cleanMessages.length).toBe((SESSIONS - 1) * MESSAGES + 1 + 3);
      expect(killedMessages.map(([id]) => id)).toEqual(cleanMessages.map(([id]) => id));
      expect(killedMessages).toEqual(cleanMessages);
      const [killedFiles, cleanFiles] = await Promise.all([keptFiles(KILLED), keptFiles(CLEAN)]);
      expect(killedFiles.size).toBe(SESSIONS);
      expect(killedFiles).toEqual(cleanFiles);
      // The grown session's new line went as a part of its own.
      expect((await everything(`${KILLED}-files`)).length).toBe(SESSIONS + 1);
      expect(JSON.stringify([...killedFiles.values()])).not.toContain(GENERATED_TOKEN);

      // And a push after it sends nothing.
      expect(
        jsonLines(
          (await runRecall(["push", "--remote", "killed", "--json"], { env: agent.env })).stdout,
        ).at(-1),
      ).toMatchObject({ messages: 0, files: 0, unchanged: SESSIONS });
    }, 900_000);
  },
);
