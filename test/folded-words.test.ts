/**
 * One definition of a word (issue 15): what `recall search` finds by a folded spelling
 * (`orsted` for `Ørsted`), `recall context` finds in the session and `recall read --highlight`
 * marks, because all three ask the native analyzer.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextMessage, ContextSummary } from "../src/api/context.js";
import { Recall, wordMarks } from "../src/index.js";
import { highlightWords } from "../src/output/highlight.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const ID = "01a0f900-0000-7000-8000-00000000f01d";
const MS = Date.parse("2026-10-02T08:00:00.000Z");
/** The conversation, one text per message, user and assistant in turn. */
const TEXTS = [
  "Which office of Ørsted did we visit?",
  "The one on the Straße des 17. Juni, near the café.",
  "And the trip to Łódź after that?",
  "That was the week after, by train.",
];
/** Each folded word and the spelling the session holds. */
const FOLDED: [string, string][] = [
  ["orsted", "Ørsted"],
  ["strasse", "Straße"],
  ["lodz", "Łódź"],
  ["cafe", "café"],
];

function writeFoldedSession(agent: AgentDir): void {
  const at = new Date(MS).toISOString();
  const folder = join(agent.sessionsDir, "--home-dev-travel--");
  mkdirSync(folder, { recursive: true });
  const entries: object[] = [
    { type: "session", version: 3, id: ID, timestamp: at, cwd: "/home/dev/travel" },
  ];
  TEXTS.forEach((text, i) => {
    const role = i % 2 === 0 ? "user" : "assistant";
    const content = role === "user" ? text : [{ type: "text", text }];
    entries.push({
      type: "message",
      id: `f0${i}`,
      parentId: i === 0 ? null : `f0${i - 1}`,
      timestamp: at,
      message: { role, content, timestamp: MS + i },
    });
  });
  writeFileSync(
    join(folder, `${at.replace(/[:.]/g, "-")}_${ID}.jsonl`),
    entries.map((e) => `${JSON.stringify(e)}\n`).join(""),
  );
}

describe("folded words", () => {
  let agent: AgentDir;
  beforeAll(() => {
    agent = makeAgentDir({ withFixtures: false });
    writeFoldedSession(agent);
  });
  afterAll(() => agent.cleanup());
  const recall = (...args: string[]) => runRecall(args, { env: agent.env });

  it.each(FOLDED)(
    "recall context finds %s where recall search does (%s)",
    async (word, spelling) => {
      const search = await recall("search", word, "--json");
      expect(search.code).toBe(0);
      expect(jsonLines<{ id: string }>(search.stdout).map((hit) => hit.id)).toContain(ID);

      const context = await recall("context", ID, word, "--json");
      expect(context.code).toBe(0);
      const lines = jsonLines<ContextMessage | ContextSummary>(context.stdout);
      const matches = lines.filter((l): l is ContextMessage => l.type === "message" && l.score > 0);
      expect(matches.map((m) => m.text)).toEqual([expect.stringContaining(spelling)]);
      expect(lines.at(-1)).toMatchObject({
        type: "context",
        terms: [word],
        matched: 1,
        total: TEXTS.length,
      });
    },
  );

  it("tags with text that holds no word of the index (one too long to index) list the tagged sessions", async () => {
    const library = Recall.open({ env: agent.env });
    await library.tags.add([await library.resolve(ID)], ["travel"]);
    const page = await library.search({ query: `#travel ${"x".repeat(200)}` });
    expect(page.hits.map((hit) => [hit.id, hit.score])).toEqual([[ID, 0]]);
    library.close();
  });

  it("recall read --highlight marks the original spelling of a folded, partly typed word", async () => {
    const read = await recall("read", ID, "--highlight", "orst lod", "--color", "always");
    expect(read.code).toBe(0);
    const marked = [...read.stdout.matchAll(/\x1b\[1m\x1b\[31m([^\x1b]*)\x1b\[39m\x1b\[22m/g)].map(
      (m) => m[1],
    );
    expect(marked).toEqual(["Ørsted", "Łódź"]);
  });
});

describe("highlightWords, at the spans wordMarks finds", () => {
  const mark = (text: string) => `[${text}]`;
  const highlight = (texts: string[], query: string) =>
    highlightWords(texts, wordMarks(texts, query), mark);

  it("marks words that start with a query word, folding case and accents on both sides", () => {
    expect(
      highlight(["Ørsted in Łódź; the CAFÉ on the Straße", "nothing here"], "orst CAFE straß"),
    ).toEqual(["[Ørsted] in Łódź; the [CAFÉ] on the [Straße]", "nothing here"]);
  });

  it("marks only whole words from their start, and nothing for one-letter query words", () => {
    expect(highlight(["redeploy the deploy-bot, deploying"], "deploy")).toEqual([
      "redeploy the [deploy]-bot, [deploying]",
    ]);
    expect(highlight(["a b c"], "a")).toEqual(["a b c"]);
  });
});
