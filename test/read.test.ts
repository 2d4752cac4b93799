import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadMessage, ReadPage } from "../src/answers/read-page.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

let agent: AgentDir;
beforeAll(() => {
  agent = makeAgentDir();
});
afterAll(() => agent.cleanup());

const recall = (...args: string[]) => runRecall(args, { env: agent.env });
type Line = ReadMessage | ReadPage;
const parse = (stdout: string) => {
  const lines = jsonLines<Line>(stdout);
  return {
    messages: lines.filter((l): l is ReadMessage => l.type === "message"),
    pages: lines.filter((l): l is ReadPage => l.type === "page"),
  };
};

const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const S2_ID = "01a0f6e8-1500-7a6b-ad20-694247f75ec3";
const S2_FILE =
  "--home-dev-shop-api--/2026-10-01T10-00-00-000Z_01a0f6e8-1500-7a6b-ad20-694247f75ec3.jsonl";
const HEADER_ONLY_ID = "01a0f8d6-7780-7f34-83aa-43d63b541099";

describe("naming the session", () => {
  it("takes a full id, a unique prefix, an absolute path or a path relative to the current folder", async () => {
    const forms = [S2_ID, "01a0f6e8", join(agent.sessionsDir, S2_FILE)];
    for (const ref of forms) {
      const result = await recall("read", ref, "--json");
      expect(result.code, ref).toBe(0);
      expect(parse(result.stdout).pages[0]).toMatchObject({
        id: S2_ID,
        path: join(agent.sessionsDir, S2_FILE),
        cwd: "/home/dev/shop-api",
      });
    }
    const relative = await runRecall(["read", `./${S2_FILE}`, "--json"], {
      env: agent.env,
      cwd: agent.sessionsDir,
    });
    expect(relative.code).toBe(0);
    expect(parse(relative.stdout).pages[0]!.id).toBe(S2_ID);
  });

  it("refuses an ambiguous prefix, listing the candidates, and an unknown one", async () => {
    const ambiguous = await recall("read", "01a0f", "--json");
    expect(ambiguous).toMatchObject({ code: 2, stdout: "" });
    // One short line: three ids, no paths, and the count of the rest.
    expect(ambiguous.stderr).toMatch(
      /^recall: "01a0f" matches 9 sessions: 01a0f[\w-]{31}, 01a0f[\w-]{31}, 01a0f[\w-]{31} and 6 more; give more of the id\n$/,
    );
    expect(ambiguous.stderr.length).toBeLessThan(200);
    const unknown = await recall("read", "ffffffff");
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toMatch(/no session with id or id prefix "ffffffff"/);
    const missingFile = await recall("read", "/nowhere/x.jsonl");
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toMatch(/no session file at \/nowhere\/x\.jsonl/);
  });
});

describe("recall read", () => {
  it("shows the active branch with summaries in place, as JSON Lines ending with the page", async () => {
    const result = await recall("read", S2_ID, "--json");
    expect(result.code).toBe(0);
    const { messages, pages } = parse(result.stdout);
    expect(messages.map((m) => [m.role, m.entryId])).toEqual([
      ["user", "ec79a1dd"],
      ["assistant", "b15fb2c2"],
      ["branch_summary", "ffebba18"],
      ["user", "8eae216c"],
      ["assistant", "a6494009"],
      ["custom", "5227b033"],
      ["compaction", "7044498a"],
      ["user", "905b7164"],
      ["assistant", "d64b4205"],
    ]);
    expect(messages.map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(messages[6]!.text).toContain("compactedsummaryword");
    expect(messages[0]).toEqual({
      type: "message",
      index: 0,
      entryId: "ec79a1dd",
      role: "user",
      timestamp: "2026-10-01T10:00:41.350Z",
      text: "Should we pin the helm chart version for the payments service?",
    });
    expect(result.stdout).not.toContain("abandonedbranchword");
    expect(pages).toEqual([
      {
        type: "page",
        id: S2_ID,
        path: join(agent.sessionsDir, S2_FILE),
        cwd: "/home/dev/shop-api",
        name: "Payments chart: helm vs kustomize",
        mode: "conversation",
        allBranches: false,
        total: 9,
        from: 0,
        count: 9,
        chars: messages.reduce((sum, m) => sum + m.text.length, 0),
        nextCursor: null,
      },
    ]);
  });

  it("shows abandoned branches with --all-branches, marked as such", async () => {
    const { messages, pages } = parse(
      (await recall("read", S2_ID, "--json", "--all-branches")).stdout,
    );
    expect(messages.filter((m) => m.branch === "abandoned").map((m) => m.entryId)).toEqual([
      "977993f5",
      "b27ebf86",
    ]);
    expect(messages.filter((m) => m.branch === "active")).toHaveLength(9);
    expect(pages[0]).toMatchObject({ allBranches: true, total: 11 });
  });

  it("adds thinking, tool calls and tool output in raw mode", async () => {
    const conversation = await recall("read", S1_ID, "--json");
    expect(conversation.stdout).not.toMatch(/zephyrthought|quuxtooloutput/);
    const raw = parse((await recall("read", S1_ID, "--json", "--mode", "raw")).stdout);
    expect(raw.messages.find((m) => m.text.includes("zephyrthought"))?.role).toBe("assistant");
    expect(raw.messages.find((m) => m.text.includes("quuxtooloutput"))).toMatchObject({
      role: "toolResult",
      toolName: "read",
      isError: false,
    });
    expect(raw.pages[0]!.mode).toBe("raw");
    const bad = await recall("read", S1_ID, "--mode", "everything");
    expect(bad.code).toBe(2);
  });

  it("finds the message a search hit names, legacy v1 sessions included", async () => {
    for (const word of ["legacyv1word", "postcompactionword", "hookmessageword"]) {
      const [hit] = jsonLines<{ id: string; message: { entryId: string } }>(
        (await recall("search", word, "--json")).stdout,
      );
      const { messages } = parse((await recall("read", hit!.id, "--json")).stdout);
      const found = messages.find((m) => m.entryId === hit!.message.entryId);
      expect(found?.text, word).toContain(word);
    }
  });

  it("gives the latest N messages with --limit", async () => {
    const { messages, pages } = parse(
      (await recall("read", S2_ID, "--json", "--limit", "2")).stdout,
    );
    expect(messages.map((m) => m.entryId)).toEqual(["905b7164", "d64b4205"]);
    expect(pages[0]).toMatchObject({ from: 7, count: 2, total: 9, nextCursor: null });
    expect((await recall("read", S2_ID, "--limit", "0")).code).toBe(2);
  });

  it("prints role headers and text for a person", async () => {
    const result = await recall("read", "01a0f6e8");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Payments chart: helm vs kustomize\n {2}\/home\/dev\/shop-api · 01a0f6e8-/,
    );
    expect(result.stdout).toMatch(
      /── user · \d{4}-\d\d-\d\d \d\d:\d\d · ec79a1dd\nShould we pin the helm chart version/,
    );
    expect(result.stdout).toMatch(/── compaction · .* · 7044498a\n## Goal/);
    expect(result.stdout).not.toMatch(/\x1b\[/);
    const all = await recall("read", "01a0f6e8", "--all-branches");
    expect(all.stdout).toMatch(/── user · .* · 977993f5 · abandoned branch\n/);
  });

  it("reads a session without messages as an empty page", async () => {
    const json = await recall("read", HEADER_ONLY_ID, "--json");
    expect(json.code).toBe(0);
    expect(parse(json.stdout).pages[0]).toMatchObject({
      total: 0,
      from: null,
      count: 0,
      nextCursor: null,
    });
    const text = await recall("read", HEADER_ONLY_ID);
    expect(text.stderr).toMatch(/has no messages to show/);
  });
});

describe("paging", () => {
  const allPages = async (ref: string, maxChars: number, env = agent.env) => {
    const pages: { messages: ReadMessage[]; page: ReadPage }[] = [];
    let cursor: string | null = null;
    do {
      const args: string[] = [
        "read",
        ref,
        "--json",
        "--max-chars",
        String(maxChars),
        ...(cursor ? ["--cursor", cursor] : []),
      ];
      const result = await runRecall(args, { env });
      expect(result.code, result.stderr).toBe(0);
      const {
        messages,
        pages: [page],
      } = parse(result.stdout);
      pages.push({ messages, page: page! });
      cursor = page!.nextCursor;
    } while (cursor && pages.length < 50);
    return pages;
  };

  it("splits a session into pages of at most --max-chars characters that add up to the whole", async () => {
    const whole = parse((await recall("read", S2_ID, "--json")).stdout).messages;
    const pages = await allPages(S2_ID, 150);
    expect(pages.length).toBeGreaterThan(3);
    for (const { page, messages } of pages) {
      expect(page.chars).toBeLessThanOrEqual(150);
      expect(page.chars).toBe(messages.reduce((sum, m) => sum + m.text.length, 0));
    }
    expect(pages.at(-1)!.page.nextCursor).toBeNull();
    // Pieces of the same message put back together give the message.
    const rebuilt = new Map<number, string>();
    for (const m of pages.flatMap((p) => p.messages))
      rebuilt.set(m.index, (rebuilt.get(m.index) ?? "") + m.text);
    expect([...rebuilt.entries()]).toEqual(whole.map((m) => [m.index, m.text]));
    // The compaction summary is longer than a page: it comes in pieces that say where they are.
    const pieces = pages.flatMap((p) => p.messages).filter((m) => m.entryId === "7044498a");
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]).toMatchObject({ textOffset: 0, textLength: whole[6]!.text.length });
    expect(pieces[1]!.textOffset).toBe(pieces[0]!.text.length);
  });

  it("ends a page for a person with the command that continues it, on stderr", async () => {
    const first = await recall("read", S2_ID, "--max-chars", "150");
    const match =
      /^recall: more follows: recall read 01a0f6e8-1500-7a6b-ad20-694247f75ec3 --cursor (\S+)\n$/.exec(
        first.stderr,
      );
    expect(match).not.toBeNull();
    expect(first.stdout).not.toContain("--cursor");
    const next = await recall("read", S2_ID, "--max-chars", "150", "--cursor", match![1]!);
    expect(next.code).toBe(0);
    expect(next.stdout).not.toContain("Payments chart: helm vs kustomize\n");
    expect(next.stdout).toMatch(/── /);
  });

  it("keeps the mode and branches of the listing the cursor came from", async () => {
    const raw = (
      await recall("read", S2_ID, "--json", "--all-branches", "--mode", "raw", "--max-chars", "150")
    ).stdout;
    const rawCursor = parse(raw).pages[0]!.nextCursor!;
    const continued = parse((await recall("read", S2_ID, "--json", "--cursor", rawCursor)).stdout);
    expect(continued.pages[0]).toMatchObject({ mode: "raw", allBranches: true });
    const conflict = await recall(
      "read",
      S2_ID,
      "--json",
      "--mode",
      "conversation",
      "--cursor",
      rawCursor,
    );
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(/this cursor continues a --mode raw listing/);
  });

  it("refuses a cursor once the session changed, one for another session, and a garbled one", async () => {
    const own = makeAgentDir();
    try {
      const first = parse(
        (await runRecall(["read", S2_ID, "--json", "--max-chars", "150"], { env: own.env })).stdout,
      );
      const cursor = first.pages[0]!.nextCursor!;
      const ok = await runRecall(["read", S2_ID, "--json", "--cursor", cursor], { env: own.env });
      expect(ok.code).toBe(0);

      const line = {
        type: "message",
        id: "aa11bb22",
        parentId: "d64b4205",
        timestamp: "2026-10-01T10:05:00.000Z",
        message: { role: "user", content: "appendedword", timestamp: 1790849100000 },
      };
      appendFileSync(join(own.sessionsDir, S2_FILE), `${JSON.stringify(line)}\n`);
      const stale = await runRecall(["read", S2_ID, "--json", "--cursor", cursor], {
        env: own.env,
      });
      expect(stale).toMatchObject({ code: 2, stdout: "" });
      expect(stale.stderr).toBe(
        "recall: session changed since this cursor was made; start again without --cursor\n",
      );
      const fresh = parse((await runRecall(["read", S2_ID, "--json"], { env: own.env })).stdout);
      expect(fresh.messages.at(-1)).toMatchObject({ entryId: "aa11bb22", text: "appendedword" });

      const other = await runRecall(["read", S1_ID, "--cursor", cursor], { env: own.env });
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/this cursor belongs to session 01a0f6e8-/);
      const garbled = await runRecall(["read", S2_ID, "--cursor", cursor.slice(0, -3)], {
        env: own.env,
      });
      expect(garbled.code).toBe(2);
      expect(garbled.stderr).toMatch(/not a cursor printed by `recall read`/);
    } finally {
      own.cleanup();
    }
  });

  it("refuses --max-chars below 100", async () => {
    const result = await recall("read", S2_ID, "--max-chars", "10");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--max-chars must be a whole number of at least 100/);
  });
});

describe("sessions from stdin", () => {
  it("reads the ids that `recall search --json | jq -r .id` gives, one per line", async () => {
    const hits = jsonLines<{ id: string }>(
      (await recall("search", "staging", "deploy", "--json")).stdout,
    );
    expect(hits.length).toBeGreaterThan(1);
    const input = `${hits.map((h) => h.id).join("\n")}\n\n`;
    const result = await runRecall(["read", "-", "--json"], { env: agent.env, input });
    expect(result.code).toBe(0);
    expect(parse(result.stdout).pages.map((p) => p.id)).toEqual(hits.map((h) => h.id));
  });

  it("reads paths too, and carries on past a session it cannot find", async () => {
    const input = `${join(agent.sessionsDir, S2_FILE)}\nffffffff\n${S1_ID}\n`;
    const result = await runRecall(["read", "-", "--json"], { env: agent.env, input });
    expect(result.code).toBe(2);
    expect(parse(result.stdout).pages.map((p) => p.id)).toEqual([S2_ID, S1_ID]);
    expect(result.stderr).toMatch(/^recall: ffffffff: no session with id/m);
  });

  it("refuses an empty stdin and a cursor for several sessions", async () => {
    const empty = await runRecall(["read", "-"], { env: agent.env, input: "\n" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/stdin held no session ids or paths/);
    const several = await runRecall(["read", "-", "--cursor", "x"], {
      env: agent.env,
      input: `${S1_ID}\n${S2_ID}\n`,
    });
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/--cursor continues one session/);
  });
});
