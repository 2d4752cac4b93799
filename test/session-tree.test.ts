import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderEntry, shownRole, TRANSCRIPT_MODES } from "../src/sessions/entry-text.js";
import { readSessionDocument } from "../src/sessions/session-document.js";
import { readSessionForIndex } from "../src/sessions/session-index-reader.js";
import { readEntries } from "../src/sessions/entries.js";
import {
  activeBranch,
  depthFirst,
  keptValue,
  readSessionTree,
} from "../src/sessions/session-tree.js";
import { conversationParts, renderHtml, renderMarkdown } from "../src/render/index.js";
import { listTranscript, readListed, transcript } from "../src/sessions/transcript.js";
import { SHARED_FIXTURES, SHARED_FIXTURES_SKIP } from "./helpers/agent-dir.js";
import { FIXTURE_FILES, FIXTURE_SESSIONS_DIR as S } from "./helpers/fixture-files.js";

const f = FIXTURE_FILES;

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);
const conversationText = (path: string, allBranches = false) =>
  transcript(readSessionTree(path), { mode: "conversation", allBranches })
    .map((i) => i.text)
    .join("\n");

describe("the session tree", () => {
  it("follows parent links from the last entry for the active branch, leaving the abandoned one out", () => {
    const tree = readSessionTree(f.s2);
    expect(tree.header).toMatchObject({
      id: "01a0f6e8-1500-7a6b-ad20-694247f75ec3",
      cwd: "/home/dev/shop-api",
      version: 3,
    });
    expect(tree.leaf?.id).toBe("d64b4205");
    const branch = ids(activeBranch(tree));
    expect(branch[0]).toBe("163096d2");
    expect(branch.at(-1)).toBe("d64b4205");
    expect(branch).toEqual(
      expect.arrayContaining(["b15fb2c2", "ffebba18", "a6494009", "7044498a"]),
    );
    expect(branch).not.toContain("977993f5");
    expect(branch).not.toContain("b27ebf86");
    // Each entry's parent comes right before it.
    const active = activeBranch(tree);
    for (let i = 1; i < active.length; i++) expect(active[i]!.parentId).toBe(active[i - 1]!.id);
  });

  it("lists every entry once depth first, an abandoned branch right after the entry it left from", () => {
    const tree = readSessionTree(f.s2);
    const order = ids(depthFirst(tree));
    expect([...order].sort()).toEqual(ids(tree.entries).sort());
    const fork = order.indexOf("b15fb2c2");
    expect(order.slice(fork + 1, fork + 4)).toEqual(["5e6d8b55", "977993f5", "b27ebf86"]);
    expect(order[fork + 4]).toBe("ffebba18");
  });

  it("migrates v1: ids L<line> chained in file order, and the compaction's first kept entry by index", () => {
    const tree = readSessionTree(f.v1);
    expect(tree.header).toMatchObject({
      id: "421f595e-0a03-4c2f-9f1d-25f1dc156710",
      version: 1,
      parent: expect.stringMatching(/8d1cec16/),
    });
    expect(ids(tree.entries)).toEqual(["L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10"]);
    expect(tree.entries.map((e) => e.parentId)).toEqual([
      null,
      "L2",
      "L3",
      "L4",
      "L5",
      "L6",
      "L7",
      "L8",
      "L9",
    ]);
    const compaction = tree.entries.find((e) => e.type === "compaction")!;
    // firstKeptEntryIndex 5 counts the header as 0: the sixth object of the file, on line 6.
    expect(compaction.firstKeptEntryId).toBe("L6");
    expect(ids(activeBranch(tree))).toEqual(ids(tree.entries));
  });

  it("renames the v2 hookMessage role to custom", () => {
    const items = transcript(readSessionTree(f.v2), { mode: "conversation", allBranches: false });
    const custom = items.find((i) => i.text.includes("hookmessageword"));
    expect(custom).toMatchObject({ role: "custom", entryId: "9e5e2fd2" });
  });

  it("keeps an unknown entry type in the tree, so what follows it stays on the branch, but never shows it", () => {
    const tree = readSessionTree(f.unknownType);
    expect(ids(activeBranch(tree))).toContain("19a97f8d");
    const text = conversationText(f.unknownType);
    expect(text).toContain("beforemodechangeword");
    expect(text).toContain("aftermodechangeword");
    expect(conversationText(f.unknownType, true)).not.toContain("unknownentryword");
    expect(
      transcript(tree, { mode: "raw", allBranches: true })
        .map((i) => i.text)
        .join("\n"),
    ).not.toContain("unknownentryword");
  });

  it("drops a line of two objects run together, as Pi does: the active branch starts after it", () => {
    const tree = readSessionTree(f.corrupt);
    expect(tree.malformedLines).toBe(2);
    const text = conversationText(f.corrupt);
    for (const word of ["beforemalformedword", "aftermalformedword"]) expect(text).toContain(word);
    for (const word of ["concatfirstword", "concatsecondword"]) expect(text).not.toContain(word);
  });

  it("takes the id from the file name when there is no header, and reads a header-only file as empty", () => {
    const tree = readSessionTree(f.noHeader);
    expect(tree.header).toMatchObject({
      id: "01a0f868-9a80-781f-b021-c1b2df97e78b",
      cwd: "",
      hasHeader: false,
    });
    expect(conversationText(f.noHeader)).toContain("noheaderword");
    const empty = readSessionTree(f.headerOnly);
    expect(empty.entries).toEqual([]);
    expect(empty.leaf).toBeUndefined();
    expect(activeBranch(empty)).toEqual([]);
  });

  it("names every message the index names, by the same entry id, in every fixture", () => {
    const files = [
      ...readdirSync(S).flatMap((dir) =>
        readdirSync(join(S, dir)).map((name) => join(S, dir, name)),
      ),
      // ../shared is not in a user's clone: its files are checked only where it exists.
      ...(existsSync(SHARED_FIXTURES) ? readdirSync(SHARED_FIXTURES) : [])
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => join(SHARED_FIXTURES, name)),
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const path of files) {
      if (!statSync(path).isFile()) continue;
      const tree = readSessionTree(path);
      for (const message of readSessionForIndex(path).messages)
        expect(tree.byId.has(message.entryId), `${path} ${message.entryId}`).toBe(true);
    }
  });

  it.skipIf(!existsSync(SHARED_FIXTURES))(
    `resolves real v1 compactions to entries of the file (../shared fixtures)${SHARED_FIXTURES_SKIP}`,
    () => {
      const path = join(SHARED_FIXTURES, "v1-real-pimono-before-compaction.jsonl");
      const tree = readSessionTree(path);
      const compactions = tree.entries.filter((e) => e.type === "compaction");
      const inFile = readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.includes('"compaction"'))
        .map((line) => JSON.parse(line) as { firstKeptEntryIndex: number });
      expect(compactions).toHaveLength(2);
      expect(inFile).toHaveLength(2);
      compactions.forEach((c, n) => {
        const kept = tree.byId.get(c.firstKeptEntryId!);
        expect(kept).toBeDefined();
        // The index counts the header as 0.
        expect(tree.entries.indexOf(kept!)).toBe(inFile[n]!.firstKeptEntryIndex - 1);
      });
    },
  );
});

describe("the transcript", () => {
  it("reads each listed entry again from its place, and refuses a file rewritten since the tree was read", () => {
    const dir = mkdtempSync(join(tmpdir(), "recall-tree-"));
    try {
      const path = join(dir, "session.jsonl");
      copyFileSync(f.s1, path);
      const tree = readSessionTree(path);
      const listed = listTranscript(tree, { mode: "conversation", allBranches: false });
      expect([...readListed(tree, listed, "conversation")].map((i) => i.entryId)).toEqual(
        listed.map((l) => l.entry.id),
      );
      writeFileSync(path, readFileSync(path, "utf8").split("\n").reverse().join("\n"));
      let error: unknown;
      try {
        [...readListed(tree, listed, "conversation")];
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toMatchObject({ code: "SESSION_REPLACED" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("notes each entry's role in a listing as the listing renders it, without its tool calls' arguments", () => {
    let shown = 0;
    for (const path of Object.values(f)) {
      for (const entry of readSessionTree(path, { keep: true }).entries) {
        const value = keptValue(entry)!;
        for (const mode of TRANSCRIPT_MODES) {
          expect(shownRole(entry.type, value, mode)).toBe(
            renderEntry(entry.type, value, mode)?.role,
          );
          expect(entry.shownAs[mode]).toBe(shownRole(entry.type, value, mode));
          if (entry.shownAs[mode]) shown++;
        }
      }
    }
    expect(shown).toBeGreaterThan(50);
  });

  it("lists a message with some text that is not blank, in every listing, as renderEntry does", () => {
    const blank = " \n\t\u00a0\u2028\ufeff";
    const contents: unknown[] = [
      blank,
      "x",
      [{ type: "text", text: blank }],
      [
        { type: "text", text: blank },
        { type: "text", text: `${blank}y` },
      ],
      [{ type: "thinking", thinking: blank }],
      [{ type: "thinking", thinking: "t", redacted: true }],
      [{ type: "toolCall", id: "c", name: "n", arguments: {} }],
      [{ type: "image" }, { type: "text", text: "" }],
      [null, 3, { type: "other", text: "z" }, { type: "text", text: 5 }],
    ];
    for (const role of ["user", "assistant", "toolResult", "custom"])
      for (const content of contents)
        for (const mode of TRANSCRIPT_MODES) {
          const value = { type: "message", message: { role, content } };
          expect(shownRole("message", value, mode)).toBe(renderEntry("message", value, mode)?.role);
        }
    const thought = {
      type: "message",
      message: { role: "assistant", content: [{ type: "thinking", thinking: blank }] },
    };
    expect(shownRole("message", thought, "raw")).toBe("assistant");
    expect(shownRole("message", thought, "conversation")).toBeUndefined();
  });

  it("reads a whole session once when the tree keeps its entries: the same document, without reading the file again", () => {
    for (const path of Object.values(f)) {
      const again = readSessionDocument(readSessionTree(path), { allBranches: true });
      const kept = readSessionTree(path, { keep: true, modes: ["raw"] });
      expect(readSessionDocument(kept, { allBranches: true })).toEqual(again);
      expect(kept.entries.every((e) => e.shownAs.conversation === undefined)).toBe(true);
    }
    const dir = mkdtempSync(join(tmpdir(), "recall-tree-"));
    try {
      const path = join(dir, "session.jsonl");
      copyFileSync(f.s1, path);
      const kept = readSessionTree(path, { keep: true, modes: ["raw"] });
      const read = readSessionTree(path);
      writeFileSync(path, readFileSync(path, "utf8").split("\n").reverse().join("\n"));
      expect(readSessionDocument(kept, { allBranches: false }).entries.length).toBeGreaterThan(2);
      expect(() => readSessionDocument(read, { allBranches: false })).toThrow(
        expect.objectContaining({ code: "SESSION_REPLACED" }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("shows conversation text only; raw adds thinking, tool calls and tool output", () => {
    const tree = readSessionTree(f.s1);
    const conversation = transcript(tree, { mode: "conversation", allBranches: false });
    expect(new Set(conversation.map((i) => i.role))).toEqual(new Set(["user", "assistant"]));
    const text = conversation.map((i) => i.text).join("\n");
    expect(text).toContain("kubectl rollout");
    expect(text).not.toContain("zephyrthought");
    expect(text).not.toContain("quuxtooloutput");
    expect(text).not.toContain("<cwd>");

    const raw = transcript(tree, { mode: "raw", allBranches: false });
    const rawText = raw.map((i) => i.text).join("\n");
    expect(rawText).toContain("[thinking]\nzephyrthought");
    expect(rawText).toContain('[tool call] read {"path":"deploy/staging.log"}');
    expect(raw.find((i) => i.text.includes("quuxtooloutput"))).toMatchObject({
      role: "toolResult",
      toolName: "read",
      isError: false,
    });
    expect(raw.map((i) => i.index)).toEqual(raw.map((_, n) => n));
  });

  it("marks tool errors and shows provider errors and images", () => {
    const raw = transcript(readSessionTree(f.s5), { mode: "raw", allBranches: false });
    expect(raw.find((i) => i.text.includes("lockedstatetoolerror"))).toMatchObject({
      role: "toolResult",
      isError: true,
    });
    expect(raw.find((i) => i.entryId === "b54d08b8")?.text).toMatch(
      /^\[error\] .*providererrorword/,
    );
    const conversation = transcript(readSessionTree(f.s5), {
      mode: "conversation",
      allBranches: false,
    });
    expect(conversation.map((i) => i.entryId)).not.toContain("b54d08b8");
    expect(conversation[0]!.text).toContain("[image image/png]");
  });

  it("puts compaction and branch summaries where they happened", () => {
    const items = transcript(readSessionTree(f.s2), { mode: "conversation", allBranches: false });
    const roles = items.map((i) => i.role);
    expect(roles).toEqual([
      "user",
      "assistant",
      "branch_summary",
      "user",
      "assistant",
      "custom",
      "compaction",
      "user",
      "assistant",
    ]);
    expect(items[6]!.text).toContain("compactedsummaryword");
    expect(items[8]!.text).toContain("postcompactionword");
    expect(items.every((i) => i.branch === "active")).toBe(true);
  });

  it("with all branches, marks what is off the active branch", () => {
    const items = transcript(readSessionTree(f.s2), { mode: "conversation", allBranches: true });
    const abandoned = items.filter((i) => i.branch === "abandoned");
    expect(abandoned.map((i) => i.entryId)).toEqual(["977993f5", "b27ebf86"]);
    expect(abandoned.every((i) => i.text.includes("abandonedbranchword"))).toBe(true);
    expect(items).toHaveLength(11);
  });
});

describe("a kept tree's tool output, parsed when its part is first rendered", () => {
  const exported = (path: string, keep: boolean) => ({
    ...readSessionDocument(
      keep ? readSessionTree(path, { keep: true, modes: ["raw"] }) : readSessionTree(path),
      { allBranches: true },
    ),
    id: "s",
    project: "p",
    tags: [],
    redacted: null,
  });
  /** Each entry's value as a full parse of its line gives it. */
  const parsedValues = (path: string) => {
    const values: Record<string, unknown>[] = [];
    readEntries(path, ({ value }) => void values.push(value));
    return values;
  };

  /** Every entry of the file kept and its value whole again equals the full parse's. */
  const expectSameAsFullParse = (path: string) => {
    const tree = readSessionTree(path, { keep: true, modes: ["raw"] });
    expect(tree.entries.map((e) => keptValue(e))).toEqual(parsedValues(path));
    for (const entry of tree.entries) {
      expect(shownRole(entry.type, keptValue(entry)!, "raw")).toBe(entry.shownAs.raw);
      if (!entry.output) continue;
      expect((entry.value!.message as Record<string, unknown>).content).toBeUndefined();
    }
    const kept = exported(path, true);
    const again = exported(path, false);
    expect(kept).toEqual(again);
    expect(renderHtml(kept)).toBe(renderHtml(again));
    expect(renderMarkdown(kept)).toBe(renderMarkdown(again));
    return tree;
  };

  it("gives every fixture entry's value, listing, document and rendering as a full parse does", () => {
    let lazy = 0;
    for (const path of Object.values(f))
      lazy += expectSameAsFullParse(path).entries.filter((e) => e.output).length;
    expect(lazy).toBeGreaterThan(3);
  });

  // Lines written by hand: what a cheap reading of a line could get wrong must come out as
  // JSON.parse reads it.
  const header = `{"type":"session","version":3,"id":"crafted","timestamp":"2026-11-01T10:00:00.000Z","cwd":"/w"}`;
  const at = (n: number) => `"timestamp":"2026-11-01T10:00:${String(n).padStart(2, "0")}.000Z"`;
  const calls = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"]
    .map(
      (id) => `{"type":"toolCall","id":"${id}","name":"bash","arguments":{"command":"ls ${id}"}}`,
    )
    .join(",");
  const big = 'x\\"y\\\\'.repeat(400_000); // ~2.8 MB, past the reader's 1 MiB chunks
  const lines = [
    header,
    `{"type":"message","id":"u1","parentId":null,${at(1)},"message":{"role":"user","content":"run them"}}`,
    `{"type":"message","id":"a1","parentId":"u1",${at(2)},"message":{"role":"assistant","content":[${calls}]}}`,
    // escaped quotes, backslashes and unicode escapes, with a key named role inside the output
    `{"type":"message","id":"r1","parentId":"a1",${at(3)},"message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"say \\"hi\\", \\\\\\"role\\":\\"user\\" \\u00e9\\ud83d\\ude00"}],"isError":false}}`,
    // odd key order: the content first, the role last
    `{"message":{"content":[{"text":"ordered oddly","type":"text"}],"isError":true,"toolName":"bash","toolCallId":"c2","role":"toolResult"},${at(4)},"parentId":"r1","id":"r2","type":"message"}`,
    // duplicate keys: the last wins, as in JSON.parse
    `{"type":"message","id":"r3","parentId":"r2",${at(5)},"message":{"role":"toolResult","toolCallId":"c9","content":[{"type":"text","text":"first content"}],"toolCallId":"c3","content":[{"type":"text","text":"second content"}]}}`,
    `{"type":"message","id":"r4","parentId":"r3",${at(6)},"message":{"role":"toolResult","toolCallId":"c4","content":[{"type":"text","text":"a user message after all"}],"role":"user"}}`,
    `{"type":"message","id":"r5","parentId":"r4",${at(7)},"message":{"role":"user","toolCallId":"c5","content":[{"type":"text","text":"a result after all"}],"role":"toolResult"}}`,
    // output only blank: not listed, so its call shows no output
    `{"type":"message","id":"r6","parentId":"r5",${at(8)},"message":{"role":"toolResult","toolCallId":"c6","content":[{"type":"text","text":"  \\n\\t "}]}}`,
    // output as a string, and output holding a call (kept parsed: it is not output only)
    `{"type":"message","id":"r7","parentId":"r6",${at(9)},"message":{"role":"toolResult","toolCallId":"c7","content":"plain string output"}}`,
    `{"type":"message","id":"r8","parentId":"r7",${at(10)},"message":{"role":"toolResult","toolCallId":"c8","content":[{"type":"text","text":"odd"},{"type":"toolCall","id":"c8b","name":"x","arguments":{}},{"type":"thinking","thinking":"hm"},7,null]}}`,
    // a result of a call that is not there (shown on its own), and a huge one with an image
    `{"type":"message","id":"r9","parentId":"r8",${at(11)},"message":{"role":"toolResult","toolCallId":"nowhere","content":[{"type":"text","text":"orphan output"}]}}`,
    `{"type":"message","id":"r10","parentId":"r9",${at(12)},"message":{"role":"toolResult","toolCallId":"c9","content":[{"type":"image","mimeType":"image/png","data":"AAAA"},{"type":"text","text":"${big}"}]}}`,
    // not JSON (a bad escape in the output): skipped, as the full parse skips it
    `{"type":"message","id":"r11","parentId":"r10",${at(13)},"message":{"role":"toolResult","toolCallId":"c1","content":[{"type":"text","text":"bad \\q escape"}]}}`,
    `  \uFEFF{"type":"message","id":"r12","parentId":"r10",${at(14)},"message":{"role":"toolResult","toolCallId":"c1","content":[{"type":"text","text":"a second answer, padded"}]}}  `,
    `{"type":"message","id":"a2","parentId":"r12",${at(15)},"message":{"role":"assistant","content":[{"type":"text","text":"done"}]}}`,
  ];

  it("gives crafted lines (escapes, key order, duplicate keys, blank, odd or huge output, bad JSON) as a full parse does", () => {
    const dir = mkdtempSync(join(tmpdir(), "recall-tree-"));
    try {
      const path = join(dir, "crafted.jsonl");
      writeFileSync(path, `${lines.join("\n")}\n`);
      const tree = expectSameAsFullParse(path);
      expect(tree.malformedLines).toBe(1);
      const byId = (id: string) => tree.byId.get(id)!;
      expect(
        ["r1", "r2", "r3", "r5", "r6", "r7", "r9", "r10", "r12"].map((id) => !!byId(id).output),
      ).toEqual([true, true, true, true, true, true, true, true, true]);
      expect(byId("r4").output).toBeUndefined();
      expect(byId("r8").output).toBeUndefined();
      expect(byId("r6").shownAs.raw).toBeUndefined();
      expect(byId("r3").value!.message).toMatchObject({ toolCallId: "c3" });
      const html = renderHtml(exported(path, true));
      expect(html).toContain("second content");
      expect(html).not.toContain("first content");
      expect(html).toContain("orphan output");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("parses no output until its part is rendered: a call's output is read with the call's part", () => {
    const dir = mkdtempSync(join(tmpdir(), "recall-tree-"));
    try {
      const path = join(dir, "crafted.jsonl");
      writeFileSync(path, `${lines.join("\n")}\n`);
      const tree = readSessionTree(path, { keep: true, modes: ["raw"] });
      const document = readSessionDocument(tree, { allBranches: false });
      // The kept bytes of two outputs spoiled: reading them now would fail.
      tree.byId.get("r2")!.output!.fill(0x20);
      tree.byId.get("r10")!.output!.fill(0x20);
      const parts = conversationParts({
        ...document,
        id: "s",
        project: "p",
        tags: [],
        redacted: null,
      });
      const callPart = parts.find((p) => p.entryIds.includes("r2"))!;
      expect(parts[0]!.html).toContain("run them");
      expect(() => callPart.html).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
