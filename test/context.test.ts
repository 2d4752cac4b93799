import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  selectContext,
  sessionContext,
  type ContextMessage,
  type ContextSummary,
} from "../src/api/context.js";
import { questionTerms, scoreTexts } from "../src/native/words.js";
import type { TranscriptItem } from "../src/sessions/transcript.js";
import { FIXTURES, makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const S = join(FIXTURES, "agent", "sessions");
const S1 = {
  id: "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5",
  cwd: "/home/dev/shop-api",
  path: join(
    S,
    "--home-dev-shop-api--/2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl",
  ),
};
const S2_ID = "01a0f6e8-1500-7a6b-ad20-694247f75ec3";

const items = (...texts: string[]): TranscriptItem[] =>
  texts.map((text, index) => ({
    index,
    entryId: `e${index}`,
    role: index % 2 ? "assistant" : "user",
    timestamp: 0,
    text,
    branch: "active",
  }));
const picks = (list: TranscriptItem[], question: string, maxChars = 20_000) =>
  selectContext(list, questionTerms(question), maxChars).picked.map((p) => p.item.index);

describe("question words", () => {
  it("drops stopwords, folds case and accents, and keeps each word once", () => {
    expect(questionTerms("What did we decide about the Helm chart, the helm CHART?")).toEqual([
      "decide",
      "helm",
      "chart",
    ]);
    expect(questionTerms("Café résumé")).toEqual(["cafe", "resume"]);
    expect(questionTerms("what is it")).toEqual(["what", "is", "it"]);
    expect(questionTerms("?!")).toEqual([]);
  });

  it("score rarer and denser matches higher", () => {
    const scores = scoreTexts(
      ["zebra zebra", "zebra and a lot of other words here", "nothing", "horse"],
      ["zebra", "horse"],
    ).map((s) => s.score);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[2]).toBe(0);
    expect(scores[3]).toBeGreaterThan(scores[1]!); // "horse" is in one text, "zebra" in two
  });
});

describe("choosing the context", () => {
  it("takes the matches with the message before and after each, in conversation order", () => {
    const list = items(
      "hello",
      "how can I help",
      "tell me about the zebra",
      "a striped animal of Africa",
      "and the weather",
      "sunny",
      "thanks",
      "bye",
    );
    expect(picks(list, "zebra")).toEqual([1, 2, 3]);
  });

  it("leaves out matches far weaker than the best", () => {
    const filler = Array.from({ length: 300 }, (_, i) => `filler${i}`).join(" ");
    const list = items(
      "quasar pulsar quasar",
      "an answer",
      "x",
      "y",
      "z",
      `${filler} pulsar ${filler}`,
      "w",
    );
    expect(picks(list, "quasar pulsar")).toEqual([0, 1]);
  });

  it("stays within the budget, cutting a long match around its rarest word", () => {
    const long = `${"lorem ipsum ".repeat(400)}the needle is here${" dolor sit".repeat(400)}`;
    const list = items("where is the needle", long, "ok");
    const { picked } = selectContext(list, questionTerms("where is the needle"), 500);
    const total = picked.reduce((sum, p) => sum + p.text.length, 0);
    expect(total).toBeLessThanOrEqual(500);
    const cut = picked.find((p) => p.item.index === 1)!;
    expect(cut.clipped).toBe(true);
    expect(cut.text).toMatch(/^….*the needle is here.*…$/s);
    expect(picked.find((p) => p.item.index === 0)).toMatchObject({
      text: "where is the needle",
      clipped: false,
    });
  });

  it("is deterministic on a real session and picks the exchange that answers the question", () => {
    const first = sessionContext(S1, "which port does the nginx ingress send traffic to", {
      maxChars: 1000,
    });
    const again = sessionContext(S1, "which port does the nginx ingress send traffic to", {
      maxChars: 1000,
    });
    expect(again).toEqual(first);
    const ids = first.messages.map((m) => m.entryId);
    expect(ids).toEqual(expect.arrayContaining(["3eb04a2d", "f6a63f03"]));
    expect(first.messages.map((m) => m.index)).toEqual(
      [...first.messages.map((m) => m.index)].sort((a, b) => a - b),
    );
    expect(first.summary).toMatchObject({
      type: "context",
      id: S1.id,
      terms: ["port", "nginx", "ingress", "send", "traffic"],
      maxChars: 1000,
    });
    expect(first.summary.chars).toBeLessThanOrEqual(1000);
    expect(first.messages.find((m) => m.entryId === "f6a63f03")?.text).toContain("8080");
  });
});

describe("recall context", () => {
  let agent: AgentDir;
  beforeAll(() => {
    agent = makeAgentDir();
  });
  afterAll(() => agent.cleanup());
  const recall = (...args: string[]) => runRecall(args, { env: agent.env });
  type Line = ContextMessage | ContextSummary;

  it("prints the chosen messages as JSON Lines with a closing summary", async () => {
    const result = await recall("context", "01a0f6e8", "kustomize overlays", "--json");
    expect(result.code).toBe(0);
    const lines = jsonLines<Line>(result.stdout);
    const messages = lines.filter((l): l is ContextMessage => l.type === "message");
    expect(messages.find((m) => m.entryId === "ffebba18")).toMatchObject({
      role: "branch_summary",
      clipped: false,
      score: expect.any(Number),
    });
    expect(messages.find((m) => m.entryId === "ffebba18")!.score).toBeGreaterThan(0);
    expect(result.stdout).not.toContain("abandonedbranchword");
    expect(lines.at(-1)).toMatchObject({
      type: "context",
      id: S2_ID,
      question: "kustomize overlays",
      terms: ["kustomize", "overlays"],
      matched: 1,
      total: 9,
    });
  });

  it("looks into abandoned branches with --all-branches", async () => {
    const lines = jsonLines<Line>(
      (await recall("context", S2_ID, "kustomize overlays", "--json", "--all-branches")).stdout,
    );
    const messages = lines.filter((l): l is ContextMessage => l.type === "message");
    expect(messages.filter((m) => m.branch === "abandoned").map((m) => m.entryId)).toEqual([
      "977993f5",
      "b27ebf86",
    ]);
  });

  it("keeps to --max-chars", async () => {
    const lines = jsonLines<Line>(
      (
        await recall(
          "context",
          S2_ID,
          "payments chart readiness probes",
          "--json",
          "--max-chars",
          "200",
        )
      ).stdout,
    );
    const messages = lines.filter((l): l is ContextMessage => l.type === "message");
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.reduce((sum, m) => sum + m.text.length, 0)).toBeLessThanOrEqual(200);
  });

  it("prints messages for a person, marking gaps, and exits 1 when nothing matches", async () => {
    const text = await recall("context", S2_ID, "what did we decide before the compaction");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /── user · .* · 905b7164\nWhat did we decide before the compaction\?/,
    );
    // Messages 3 and 4 are not picked: a gap between 2 (a neighbour) and 5 (a neighbour of the
    // compaction).
    const gap = await recall("context", S2_ID, "pin chart 4.2.1");
    expect(gap.stdout).toMatch(/· ffebba18\n[\s\S]*\n\n⋯\n\n── custom · .* · 5227b033\n/);
    const none = await recall("context", S2_ID, "zyxxyzzy");
    expect(none).toMatchObject({ code: 1, stdout: "" });
    expect(none.stderr).toMatch(/no message of session 01a0f6e8-.* mentions zyxxyzzy/);
    const empty = await recall("context", S2_ID, "?!");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/the question has no words/);
  });
});
