/**
 * The same checks over the real and Pi-written sessions in ../shared/fixtures/pi-sessions. A
 * user's clone has no ../shared: then these tests are skipped, and their names say why.
 */
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openRecall } from "./helpers/open-store.js";
import { searchSessions } from "../src/api/search.js";
import { readSessionForIndex } from "../src/sessions/session-index-reader.js";
import { syncIndex } from "../src/sync/sync.js";
import { makeAgentDir, SHARED_FIXTURES, SHARED_FIXTURES_SKIP } from "./helpers/agent-dir.js";

const present = existsSync(SHARED_FIXTURES);
const file = (name: string) => join(SHARED_FIXTURES, name);

describe.skipIf(!present)(
  `shared fixtures (../shared/fixtures/pi-sessions)${SHARED_FIXTURES_SKIP}`,
  () => {
    it("reads every file without throwing", () => {
      for (const name of readdirSync(SHARED_FIXTURES).filter((n) => n.endsWith(".jsonl"))) {
        const read = readSessionForIndex(file(name));
        expect(read.header.id, name).toBeTruthy();
      }
    });

    it("real v1 sessions: stable ids, branchedFrom, v1 compaction, no tool output", () => {
      const read = readSessionForIndex(file("v1-real-pimono-before-compaction.jsonl"));
      expect(read.header.version).toBe(1);
      expect(read.header.parent).toBeTruthy();
      expect(read.messages.filter((m) => m.role === "compaction")).toHaveLength(2);
      expect(read.messages.every((m) => /^L\d+$/.test(m.entryId))).toBe(true);
      expect(read.messages.length).toBeGreaterThan(10);
    });

    it("skips the real concatenated line and names it, as Pi drops it", () => {
      const read = readSessionForIndex(
        file("v1-real-pimono-compact-images-concatenated-line.jsonl"),
      );
      expect(read.malformedAt).toContainEqual({
        line: 1013,
        reason: "several JSON objects on one line",
      });
      expect(read.messages.filter((m) => m.entryId === "L1013")).toEqual([]);
    });

    it("a header-only subagent artifact has no messages", () => {
      const read = readSessionForIndex(file("v3-real-header-only-subagent-artifact.jsonl"));
      expect(read.messages).toEqual([]);
      expect(read.header.hasHeader).toBe(true);
    });

    it("Pi 1.6.0 files: system prompts are not indexed; thinking and tool output only as their own kinds", () => {
      const read = readSessionForIndex(file("v3-pi1.6.0-cli-extension-tool-resumed.jsonl"));
      expect(read.messages.map((m) => m.role)).not.toContain("system");
      const said = read.messages.filter((m) => m.kind === undefined);
      expect(
        said.every((m) =>
          ["user", "assistant", "custom", "compaction", "branch_summary"].includes(m.role),
        ),
      ).toBe(true);
      expect(read.messages.some((m) => m.kind === "output")).toBe(true);
    });

    describe("indexed together in one sessions folder", () => {
      const agent = makeAgentDir({ withFixtures: false });
      afterAll(() => agent.cleanup());
      const dir = join(agent.sessionsDir, "--home-dev-pi-demo--");
      mkdirSync(dir);

      it("indexes them all, and a fork's copied history comes back once", async () => {
        for (const name of readdirSync(SHARED_FIXTURES).filter((n) => n.endsWith(".jsonl")))
          cpSync(file(name), join(dir, name));
        const store = await openRecall({ env: agent.env });
        const report = await syncIndex(store);
        expect(report.failed).toEqual([]);
        expect(report.indexed).toBe(9);
        // The fork copies its parent's whole history under the parent's original file name.
        const fork = readSessionForIndex(file("v3-pi1.6.0-fork-parentSession.jsonl"));
        expect(fork.header.parent).toMatch(/01a22b05-1968-765d-a8de-8ff7ce51b68f\.jsonl$/);
        const parentName = fork.header.parent!.split("/").at(-1)!;
        cpSync(
          file("v3-pi1.6.0-tree-branch-summary-compaction-image-labels.jsonl"),
          join(dir, parentName),
        );
        await syncIndex(store);
        const parentFirst = readSessionForIndex(join(dir, parentName)).messages.find(
          (m) => m.role === "user",
        )!;
        const words = parentFirst.text.split(/\s+/).slice(0, 6).join(" ");
        const hits = await searchSessions(store, {
          query: `"${words.replace(/"/g, "")}"`,
          limit: 50,
        });
        const ids = hits.map((h) => h.id);
        expect(ids.filter((id) => id === fork.header.id)).toHaveLength(0);
        expect(ids).toContain("01a22b05-1968-765d-a8de-8ff7ce51b68f");
      });
    });
  },
);
