/**
 * The sync's change stream as a second consumer sees it (src/sync/consumer.ts): a consumer kept in
 * memory, with marks of its own, is told per session file what changed since ITS last run —
 * appended messages, sessions written anew, files gone — however often the index synced meanwhile.
 * What it builds from the changes must equal what a consumer reading everything once builds.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { IndexedMessage } from "../src/sessions/session-index-reader.js";
import type { SessionChange } from "../src/sync/changes.js";
import { syncConsumer, type MarkedSink } from "../src/sync/consumer.js";
import type { KnownFile } from "../src/sync/state.js";
import { syncIndex } from "../src/sync/sync.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { FIXTURE_FILES, FIXTURE_SESSIONS_DIR, userMessage } from "./helpers/fixture-files.js";
import { openRecall } from "./helpers/open-store.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

/** A consumer in memory: its marks, and each file's messages as the changes leave them. */
class MemorySink implements MarkedSink {
  readonly marked = new Map<string, KnownFile>();
  readonly messages = new Map<string, IndexedMessage[]>();
  emitted: SessionChange[] = [];

  async allMarks(): Promise<KnownFile[]> {
    return [...this.marked.values()];
  }

  async marks(paths: readonly string[]): Promise<Map<string, KnownFile>> {
    return new Map(
      paths.flatMap((path) =>
        this.marked.has(path) ? [[path, this.marked.get(path)!] as const] : [],
      ),
    );
  }

  async forksOf(parentNames: readonly string[]): Promise<KnownFile[]> {
    return [...this.marked.values()].filter(
      (m) =>
        m.state.header.parent !== undefined &&
        parentNames.includes(basename(m.state.header.parent)),
    );
  }

  async filesOfSession(id: string): Promise<KnownFile[]> {
    return [...this.marked.values()].filter((m) => m.state.header.id.startsWith(id));
  }

  async emit(change: SessionChange): Promise<void> {
    this.emitted.push(change);
    if (change.kind === "removed") {
      this.marked.delete(change.path);
      this.messages.delete(change.path);
      return;
    }
    const { file, read } = change;
    const replaceFrom =
      change.kind === "part"
        ? change.first
          ? (change.from ?? 0)
          : undefined
        : change.continued
          ? undefined
          : change.kind === "appended"
            ? change.from
            : 0;
    const had = this.messages.get(file.path) ?? [];
    const kept = replaceFrom === undefined ? had : had.filter((m) => m.index < replaceFrom);
    this.messages.set(file.path, [...kept, ...read.messages]);
    if (change.kind !== "part")
      this.marked.set(file.path, {
        path: file.path,
        size: file.size,
        mtimeMs: file.mtimeMs,
        ino: file.ino,
        state: change.mark,
      });
  }

  /** What was emitted since the last call, as (kind, file name) pairs. */
  take(): [string, string][] {
    const taken = this.emitted.map((c): [string, string] => [
      c.kind,
      basename(c.kind === "removed" ? c.path : c.file.path),
    ]);
    this.emitted = [];
    return taken;
  }
}

const at = (ms: string) => Date.parse(ms);

describe("a second consumer of the sync's changes", () => {
  it("gets appends, rewrites and deletions since its own mark, whatever the index synced meanwhile", async () => {
    agent = makeAgentDir();
    const locations = (await openRecall({ env: agent.env })).locations;
    const path = (fixture: string) =>
      join(agent.sessionsDir, fixture.slice(FIXTURE_SESSIONS_DIR.length + 1));
    const s1 = path(FIXTURE_FILES.s1);
    const s3 = path(FIXTURE_FILES.s3); // a fork of s1
    const s4 = path(FIXTURE_FILES.s4);
    const sink = new MemorySink();
    /** A consumer reading every file once, now: what `sink` must hold after its changes. */
    const fromScratch = async () => {
      const fresh = new MemorySink();
      await syncConsumer(locations, fresh);
      return fresh.messages;
    };

    await syncIndex(await openRecall({ env: agent.env }));
    const first = await syncConsumer(locations, sink);
    expect(first).toMatchObject({ indexed: 11, appended: 0, removed: 0 });
    expect(sink.emitted.every((c) => c.kind === "written" && c.before === undefined)).toBe(true);
    sink.take();

    // Nothing changed since its mark: nothing to emit, though the index was synced too.
    expect(await syncConsumer(locations, sink)).toMatchObject({
      indexed: 0,
      appended: 0,
      removed: 0,
      planned: 0,
    });
    expect(sink.take()).toEqual([]);

    // Two appends, each synced into the index at once: one change for the consumer, with both.
    const markBefore = sink.marked.get(s1)!.state.checkpoint.nextIndex;
    appendFileSync(s1, userMessage("p0000001", "firstpushword", at("2026-11-02T00:00:00Z")));
    expect(await syncIndex(await openRecall({ env: agent.env }))).toMatchObject({ appended: 1 });
    appendFileSync(s1, userMessage("p0000002", "secondpushword", at("2026-11-02T00:01:00Z")));
    expect(await syncIndex(await openRecall({ env: agent.env }))).toMatchObject({ appended: 1 });
    expect(await syncConsumer(locations, sink)).toMatchObject({ appended: 1, indexed: 0 });
    const [appended] = sink.emitted;
    expect(sink.take()).toEqual([["appended", basename(s1)]]);
    expect(appended).toMatchObject({ kind: "appended", from: markBefore });
    const texts = (appended as Extract<SessionChange, { kind: "appended" }>).read.messages
      .map((m) => m.text)
      .join("\n");
    expect(texts).toMatch(/firstpushword[\s\S]*secondpushword/);
    expect(sink.messages).toEqual(await fromScratch());

    // A session rewritten in place (not appended to): written again, whole, with its old mark.
    const lines = readFileSync(s4, "utf8").trimEnd().split("\n");
    writeFileSync(
      s4,
      [
        lines[0],
        userMessage("p0000003", "rewrittenword", at("2026-11-03T00:00:00Z")).trimEnd(),
      ].join("\n") + "\n",
    );
    await syncConsumer(locations, sink);
    const [rewritten] = sink.emitted;
    expect(sink.take()).toEqual([["written", basename(s4)]]);
    expect((rewritten as Extract<SessionChange, { kind: "written" }>).before?.path).toBe(s4);
    expect(sink.messages.get(s4)!.map((m) => m.text)).toEqual(["rewrittenword"]);
    expect(sink.messages).toEqual(await fromScratch());

    // A deleted session: removed; its fork is read whole again (its copied history is its own now).
    rmSync(s1);
    await syncIndex(await openRecall({ env: agent.env }));
    expect(await syncConsumer(locations, sink)).toMatchObject({ removed: 1, indexed: 1 });
    expect(sink.take()).toEqual([
      ["removed", basename(s1)],
      ["written", basename(s3)],
    ]);
    expect(sink.marked.has(s1)).toBe(false);
    expect(sink.messages).toEqual(await fromScratch());
  });
});
