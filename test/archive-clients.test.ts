/**
 * The archive's OpenSearch clients, against a real OpenSearch (scripts/opensearch.sh): each
 * operation of a remote (test, push, search, read, pull, forget) closes its client when it ends,
 * so no connection is left open behind it (seen through a real proxy that never closes an idle
 * connection itself); and a push whose documents the engine keeps refusing for a passing reason
 * (an index blocked at the disk's flood stage: 429 for every item) says the status and the
 * engine's reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Recall, type Archive } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { startArchiveProxy, type ArchiveProxy } from "./helpers/archive-proxy.js";
import {
  engineApi,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
} from "./helpers/opensearch.js";
import { runRecall } from "./helpers/run-cli.js";

const INDEX = "recall-clients-test";
const BLOCKED = "recall-clients-blocked";
const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

let url = "";
let ada: AgentDir;
let proxy: ArchiveProxy;
let archive: Archive;

describe.skipIf(openSearchMissing)(
  needsOpenSearch("the archive's OpenSearch clients, against a real OpenSearch"),
  () => {
    beforeAll(async () => {
      url = await openSearchUrl();
      ada = makeAgentDir();
      proxy = await startArchiveProxy(url, { keepIdle: true });
      const added = await runRecall(
        [
          "remote",
          "add",
          "team",
          proxy.url,
          "--index",
          INDEX,
          "--keep-files",
          "--machine",
          "laptop",
          "--user",
          "ada",
        ],
        { env: ada.env },
      );
      expect(added.stderr).toBe("");
      expect(
        (await runRecall(["remote", "add", "full", url, "--index", BLOCKED], { env: ada.env }))
          .stderr,
      ).toBe("");
      archive = Recall.open({ env: ada.env, showRemoteHosts: true }).archive;
    }, 300_000);
    afterAll(async () => {
      await proxy?.close();
      ada?.cleanup();
    });

    it(
      "each operation of a remote closes its client: no connection is left open once it ends",
      { timeout: 120_000 },
      async () => {
        const operations: [string, () => Promise<unknown>][] = [
          ["remote test", () => archive.test("team")],
          // Refreshed straight on the engine (not through the proxy), for the search and read that
          // follow.
          [
            "push",
            () =>
              archive
                .push("team")
                .then(() => engineApi(url, `/${INDEX}/_refresh`, { method: "POST" })),
          ],
          ["search", () => archive.search("team", { query: "staging deploy" })],
          ["read", () => archive.read("team", S1.slice(0, 8))],
          // The session is here already: the same file, or another version of it (refused).
          ["pull", () => archive.pull("team", S1).catch((error: unknown) => error)],
          ["forget", () => archive.forget("team", { sessions: [S1] })],
          [
            "a failed read",
            () => archive.read("team", "ffffffff").catch((error: unknown) => error),
          ],
        ];
        for (const [what, operation] of operations) {
          const asked = proxy.requests.length;
          await operation();
          expect(proxy.requests.length, what).toBeGreaterThan(asked);
          // Waits on the proxy's connections closing: one left open fails the test by its timeout.
          await proxy.allClosed();
          expect(proxy.openConnections, what).toBe(0);
        }
      },
    );

    it(
      "a push the engine keeps refusing for a passing reason says the status and the engine's reason",
      { timeout: 120_000 },
      async () => {
        // The index made (by the remote's test), then blocked as the engine blocks it when the disk
        // is nearly full.
        expect((await runRecall(["remote", "test", "full"], { env: ada.env })).code).toBe(0);
        await engineApi(url, `/${BLOCKED}/_settings`, {
          method: "PUT",
          body: { "index.blocks.read_only_allow_delete": true },
        });
        try {
          const pushed = await runRecall(["push", "--remote", "full"], { env: ada.env });
          expect(pushed.code).toBe(2);
          expect(pushed.stderr).toMatch(
            /^recall: remote full kept refusing \d+ documents after 8 tries \(HTTP 429: index \[recall-clients-blocked-v1\] blocked by: \[TOO_MANY_REQUESTS\/12\/disk usage exceeded flood-stage watermark[^\n]*\)\n$/,
          );
        } finally {
          await engineApi(url, `/${BLOCKED}/_settings`, {
            method: "PUT",
            body: { "index.blocks.read_only_allow_delete": null },
          });
        }
      },
    );
  },
);
