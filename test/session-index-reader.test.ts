import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  idFromFileName,
  OPENING_CHARS,
  readCopyKeys,
  readSessionForIndex,
  type IndexedMessage,
} from "../src/sessions/session-index-reader.js";
import {
  cappedOutput,
  commandPaths,
  OUTPUT_HEAD_CHARS,
  OUTPUT_TAIL_CHARS,
} from "../src/sessions/other-text.js";
import { splitConcatenated } from "../src/sessions/lines.js";
import { FIXTURE_FILES } from "./helpers/fixture-files.js";

const f = FIXTURE_FILES;

const conversation = (messages: IndexedMessage[]) => messages.filter((m) => m.kind === undefined);
const allText = (path: string) =>
  conversation(readSessionForIndex(path).messages)
    .map((m) => m.text)
    .join("\n");

describe("reading a v3 session for the index", () => {
  const read = readSessionForIndex(f.s1);

  it("takes id, cwd, name and times from the file", () => {
    expect(read.header).toMatchObject({
      id: "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5",
      cwd: "/home/dev/shop-api",
      version: 3,
      hasHeader: true,
    });
    expect(read.name).toBe("Fix staging deploy: readiness probe and nginx ingress");
    expect(read.header.created).toBe(Date.parse("2026-10-01T09:00:00.000Z"));
    expect(read.modified).toBeGreaterThan(read.header.created);
    expect(read.firstMessage).toMatch(/staging deploy/);
    expect(read.messageCount).toBeGreaterThan(2);
  });

  it("keeps thinking, tool calls and tool output out of the conversation, and system prompts out of everything", () => {
    const text = allText(f.s1);
    expect(text).toMatch(/kubectl rollout/);
    expect(text).not.toMatch(/zephyrthought/);
    expect(text).not.toMatch(/quuxtooloutput/);
    expect(text).not.toMatch(/staging\.log/);
    expect(read.messages.map((m) => m.role)).not.toContain("system");
  });

  it("indexes thinking, each tool call and each tool output as their own kinds, from their own entries", () => {
    const of = (kind: string) => read.messages.filter((m) => m.kind === kind);
    expect(of("thinking").find((m) => m.text.includes("zephyrthought"))).toMatchObject({
      entryId: "8eb91481",
      role: "assistant",
    });
    expect(of("call")).toContainEqual(
      expect.objectContaining({
        entryId: "8eb91481",
        tool: "read",
        text: "read deploy/staging.log",
        files: ["/home/dev/shop-api/deploy/staging.log"],
      }),
    );
    expect(of("call")).toContainEqual(
      expect.objectContaining({
        entryId: "26555f6d",
        tool: "bash",
        files: ["/home/dev/shop-api/k8s/ingress.yaml"],
      }),
    );
    expect(of("output").find((m) => m.text.includes("quuxtooloutput"))).toMatchObject({
      entryId: "53422857",
      tool: "read",
      role: "toolResult",
    });
    // Each sits at the position of the conversation message it came during or after.
    const user = conversation(read.messages)[0]!;
    expect(of("output").find((m) => m.entryId === "53422857")!.index).toBe(user.index + 1);
  });

  it("joins consecutive messages of the same role, across tool calls and results, with the last entry's id and time", () => {
    const said = conversation(read.messages);
    const roles = said.map((m) => m.role);
    for (let i = 1; i < roles.length; i++) expect(roles[i]).not.toBe(roles[i - 1]);
    expect(said.map((m) => m.index)).toEqual(said.map((_, i) => i));
    const joined = said.find((m) => m.text.includes("Let me read the staging deploy log"))!;
    expect(joined.text).toContain("The new pods never become ready");
    expect(joined.entryId).toBe("b5fe19bd");
    expect(joined.timestamp).toBe(Date.parse("2026-10-01T09:00:54.189Z"));
  });

  it("caps a long tool output at its first and last parts", () => {
    const long = `${"a".repeat(OUTPUT_HEAD_CHARS)}middlepart${"z".repeat(OUTPUT_TAIL_CHARS)}`;
    const capped = cappedOutput(long);
    expect(capped.startsWith("a".repeat(OUTPUT_HEAD_CHARS))).toBe(true);
    expect(capped.endsWith("z".repeat(OUTPUT_TAIL_CHARS))).toBe(true);
    expect(capped).not.toContain("middlepart");
    expect(cappedOutput("short")).toBe("short");
  });

  it("takes the words of a bash command that look like paths, against the session's folder", () => {
    expect(
      commandPaths(
        "cd /srv && cat src/app.ts README.md | grep -n x > out.log; ls -la ./lib/",
        "/home/dev/p",
      ),
    ).toEqual([
      "/srv",
      "/home/dev/p/src/app.ts",
      "/home/dev/p/README.md",
      "/home/dev/p/out.log",
      "/home/dev/p/lib",
    ]);
    expect(commandPaths("curl https://example.com/a.json --output=x.json", "/p")).toEqual([
      "/p/x.json",
    ]);
    expect(commandPaths("cat notes.txt", "")).toEqual([]);
  });

  it("keeps branch summaries, compaction summaries and custom messages", () => {
    const roles = readSessionForIndex(f.s2).messages.map((m) => m.role);
    expect(roles).toEqual(expect.arrayContaining(["branch_summary", "compaction", "custom"]));
    const text = allText(f.s2);
    for (const word of [
      "abandonedbranchword",
      "activebranchword",
      "compactedsummaryword",
      "custommessageword",
      "postcompactionword",
    ]) {
      expect(text).toContain(word);
    }
  });

  it("reads unicode text unchanged", () => {
    expect(allText(f.s4)).toContain("The café résumé page renders 日本語 titles");
  });

  it("survives images, tool errors and provider errors", () => {
    const read5 = readSessionForIndex(f.s5);
    expect(read5.messages.length).toBeGreaterThan(0);
    expect(allText(f.s5)).not.toContain("iVBOR"); // no base64 image data
  });
});

describe("older format versions", () => {
  it("v1: no ids (stable line ids instead), branchedFrom as the parent, v1 compaction", () => {
    const read = readSessionForIndex(f.v1);
    expect(read.header.version).toBe(1);
    expect(read.header.parent).toMatch(/\.jsonl$/);
    expect(read.messages.every((m) => /^L\d+$/.test(m.entryId))).toBe(true);
    expect(readSessionForIndex(f.v1).messages.map((m) => m.entryId)).toEqual(
      read.messages.map((m) => m.entryId),
    );
    const text = read.messages.map((m) => m.text).join("\n");
    expect(text).toContain("legacyv1word");
    expect(text).toContain("v1compactionword");
    expect(read.messages.find((m) => m.role === "compaction")).toBeTruthy();
  });

  it("v2: hookMessage is read as a custom message", () => {
    const read = readSessionForIndex(f.v2);
    expect(read.header.version).toBe(2);
    const custom = read.messages.find((m) => m.text.includes("hookmessageword"));
    expect(custom?.role).toBe("custom");
  });
});

describe("damaged and unusual files", () => {
  it("skips a line of two objects run together, as Pi does, and a cut-off line, naming both", () => {
    const read = readSessionForIndex(f.corrupt);
    expect(read.malformedLines).toBe(2);
    expect(read.malformedAt.map((m) => m.reason)).toEqual([
      "several JSON objects on one line",
      "not JSON",
    ]);
    const text = read.messages.map((m) => m.text).join("\n");
    for (const word of ["beforemalformedword", "aftermalformedword"]) expect(text).toContain(word);
    for (const word of ["concatfirstword", "concatsecondword"]) expect(text).not.toContain(word);
  });

  it("splits concatenated objects only when every piece is an object", () => {
    expect(splitConcatenated('{"a":1}{"b":"}{"}')).toEqual([{ a: 1 }, { b: "}{" }]);
    expect(splitConcatenated('{"a":1} x {"b":2}')).toBeUndefined();
    expect(splitConcatenated('{"a":1')).toBeUndefined();
  });

  it("takes the id of a file without a header from its name", () => {
    const read = readSessionForIndex(f.noHeader);
    expect(read.header).toMatchObject({
      id: "01a0f868-9a80-781f-b021-c1b2df97e78b",
      hasHeader: false,
      cwd: "",
    });
    expect(read.messages.map((m) => m.text).join("\n")).toContain("noheaderword");
    expect(idFromFileName("/x/custom-name.jsonl")).toBe("custom-name");
  });

  it("skips unknown entry types without losing what follows", () => {
    const text = allText(f.unknownType);
    expect(text).toContain("beforemodechangeword");
    expect(text).toContain("aftermodechangeword");
  });

  it("reads a header-only file as a session without messages", () => {
    const read = readSessionForIndex(f.headerOnly);
    expect(read.header.id).toBe("01a0f8d6-7780-7f34-83aa-43d63b541099");
    expect(read.messages).toEqual([]);
    expect(read.messageCount).toBe(0);
  });
});

describe("a session's opening", () => {
  it("is its user and assistant messages joined, a fork's copied ones too, cut at OPENING_CHARS", () => {
    const s1 = readSessionForIndex(f.s1, { opening: true });
    const [asked, answered] = conversation(s1.messages);
    expect(s1.opening.startsWith(asked!.text.trim())).toBe(true);
    expect(s1.opening).toContain(answered!.text.trim().slice(0, 40));
    // Kept only when asked for (the archive's watermarks keep every checkpoint, and never use it).
    expect(readSessionForIndex(f.s1).opening).toBe("");
    // A fork starts as its parent did: the same opening, though its copies are not indexed again.
    const fork = readSessionForIndex(f.s3, { skipCopies: readCopyKeys(f.s1), opening: true });
    expect(fork.opening.startsWith(s1.opening.slice(0, 100))).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), "recall-opening-"));
    const path = join(dir, "long.jsonl");
    const header = JSON.stringify({
      type: "session",
      version: 3,
      id: "0190cccc-0000-7000-8000-000000000001",
      timestamp: "2026-10-01T00:00:00.000Z",
      cwd: "/tmp",
    });
    const line = (n: number, role: string, text: string) =>
      JSON.stringify({
        type: "message",
        id: `m${n}`,
        parentId: null,
        timestamp: "2026-10-01T00:00:00.000Z",
        message: {
          role,
          content: [{ type: "text", text }],
          timestamp: Date.parse("2026-10-01T00:00:00Z") + n,
        },
      });
    // 900 characters a message, and one with an emoji across the cut.
    const texts = [
      "a".repeat(900),
      "b".repeat(900),
      `${"c".repeat(OPENING_CHARS - 1803)}😀 tail`,
      "d".repeat(900),
    ];
    writeFileSync(
      path,
      [header, ...texts.map((text, n) => line(n, n % 2 ? "assistant" : "user", text))].join("\n") +
        "\n",
    );
    const long = readSessionForIndex(path, { opening: true });
    expect(long.opening).toBe(`${texts[0]}\n${texts[1]}\n${"c".repeat(OPENING_CHARS - 1803)}😀`);
  });
});

describe("forks", () => {
  it("skips the history a fork copied from its parent", () => {
    const fork = readSessionForIndex(f.s3, { skipCopies: readCopyKeys(f.s1) });
    const text = fork.messages.map((m) => m.text).join("\n");
    expect(text).toContain("forkonlyword");
    expect(text).not.toContain("kubectl rollout");
    expect(fork.messageCount).toBeGreaterThan(fork.messages.length);
    expect(
      readSessionForIndex(f.s3)
        .messages.map((m) => m.text)
        .join("\n"),
    ).toContain("kubectl rollout");
  });
});

describe("resuming a read after an append", () => {
  const message = (id: string, parentId: string, role: string, text: string, ms: number) =>
    JSON.stringify({
      type: "message",
      id,
      parentId,
      timestamp: new Date(ms).toISOString(),
      message: { role, content: [{ type: "text", text }], timestamp: ms },
    }) + "\n";

  it("produces exactly what a full read of the grown file produces", () => {
    const dir = mkdtempSync(join(tmpdir(), "recall-resume-"));
    const path = join(dir, "s.jsonl");
    copyFileSync(f.s1, path);
    const first = readSessionForIndex(path, { opening: true });
    const last = conversation(first.messages).at(-1)!;
    // The appended assistant text continues the last (assistant) message: it must be joined.
    expect(last.role).toBe("assistant");
    const base = first.modified + 1000;
    appendFileSync(path, message("aaaa0001", "x", "assistant", "appendedjoinword", base));
    appendFileSync(path, message("aaaa0002", "aaaa0001", "user", "appendeduserword", base + 1000));
    appendFileSync(path, '{"type":"message","id":"partial'); // Pi is still writing this line

    const resumed = readSessionForIndex(path, {
      resume: { header: first.header, checkpoint: first.checkpoint },
      opening: true,
    });
    const full = readSessionForIndex(path, { opening: true });
    expect(resumed.messages).toEqual(
      full.messages.filter((m) => m.index >= first.checkpoint.nextIndex),
    );
    expect(resumed.messages[0]!.index).toBe(last.index);
    expect(resumed.messages[0]!.text).toContain("appendedjoinword");
    expect(resumed.messageCount).toBe(full.messageCount);
    expect(resumed.modified).toBe(full.modified);
    expect(resumed.name).toBe(full.name);
    expect(resumed.firstMessage).toBe(full.firstMessage);
    expect(resumed.opening).toBe(full.opening);
    expect(resumed.end).toBe(readFileSync(path).length - '{"type":"message","id":"partial'.length);
  });

  it("starts after the header of a file that had no message yet", () => {
    const dir = mkdtempSync(join(tmpdir(), "recall-resume-"));
    const path = join(dir, "s.jsonl");
    copyFileSync(f.headerOnly, path);
    const first = readSessionForIndex(path);
    appendFileSync(
      path,
      message("bbbb0001", "x", "user", "firstrealword", first.header.created + 1000),
    );
    const resumed = readSessionForIndex(path, {
      resume: { header: first.header, checkpoint: first.checkpoint },
    });
    expect(resumed.messages.map((m) => m.text)).toEqual(["firstrealword"]);
    expect(resumed.messageCount).toBe(1);
    writeFileSync(path, "");
  });
});
