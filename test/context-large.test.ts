/**
 * `recall context` on a session whose conversation is too large to hold: its messages are scored
 * a part at a time and only those picked are read again (src/api/context-messages.ts). The answer
 * must be the one the selection gives with every message held at once.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  selectContext,
  sessionContext,
  sessionContextOrSample,
  selectSample,
} from "../src/api/context.js";
import { heldMessages } from "../src/api/context-messages.js";
import { questionTerms } from "../src/native/words.js";
import { readSessionTree } from "../src/sessions/session-tree.js";
import { transcript } from "../src/sessions/transcript.js";

const dir = mkdtempSync(join(tmpdir(), "recall-context-large-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = "01a5aaaa-0000-7000-8000-000000000001";
const START = Date.parse("2026-10-05T09:00:00Z");
/** Messages of the conversation: their text is several parts' worth. */
const MESSAGES = 3600;
const WORDS = [
  "ingress",
  "probe",
  "chart",
  "nginx",
  "port",
  "helm",
  "rollout",
  "canary",
  "quota",
  "replica",
  "secret",
  "volume",
];

/**
 * A seeded conversation: each message a few thousand characters, the question's words spread
 * unevenly.
 */
function writeSession(): string {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines = [
    JSON.stringify({
      type: "session",
      version: 3,
      id: ID,
      timestamp: new Date(START).toISOString(),
      cwd: "/home/dev/big",
    }),
  ];
  let parent: string | null = null;
  for (let n = 0; n < MESSAGES; n++) {
    const words = Array.from({ length: 200 + Math.floor(random() * 400) }, () =>
      random() < 0.02
        ? WORDS[Math.floor(random() * WORDS.length)]
        : `filler${Math.floor(random() * 5000)}`,
    );
    const id = `m${n}`;
    const role = n % 2 ? "assistant" : "user";
    lines.push(
      JSON.stringify({
        type: "message",
        id,
        parentId: parent,
        timestamp: new Date(START + n * 1000).toISOString(),
        message: {
          role,
          content: [{ type: "text", text: words.join(" ") }],
          timestamp: START + n * 1000,
        },
      }),
    );
    parent = id;
  }
  const path = join(dir, `2026-10-05T09-00-00-000Z_${ID}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("the context of a large session", () => {
  const path = writeSession();
  const session = { id: ID, cwd: "/home/dev/big", path };
  const held = transcript(readSessionTree(path), { mode: "conversation", allBranches: false });

  it("is chosen from its messages read in parts as from all of them held at once", () => {
    expect(held.reduce((sum, item) => sum + item.text.length, 0)).toBeGreaterThan(2 * (4 << 20));
    let given = 0;
    for (const [question, maxChars] of [
      ["nginx ingress port", 20_000],
      ["helm chart rollout canary", 5_000],
      ["quota", 100_000],
      ["secret volume replica probe", 300],
    ] as const) {
      const fromFile = sessionContext(session, question, { maxChars });
      const { picked, matched } = selectContext(held, questionTerms(question), maxChars);
      expect(fromFile.summary).toMatchObject({ matched, total: MESSAGES });
      expect(fromFile.messages.map((m) => [m.index, m.text, m.clipped])).toEqual(
        picked.map((p) => [p.item.index, p.text, p.clipped]),
      );
      expect(fromFile.messages.map((m) => m.score)).toEqual(
        picked.map((p) => Math.round(p.score * 1000) / 1000),
      );
      given += fromFile.messages.length;
    }
    expect(given).toBeGreaterThan(8);
  });

  it("is sampled, for a question none of its messages holds, as from all of them held at once", () => {
    const sampled = sessionContextOrSample(session, "zyzzyva", { maxChars: 9_000 });
    expect(sampled.sampled).toBe(true);
    const picked = selectSample(heldMessages(held), 9_000);
    expect(sampled.messages.map((m) => [m.index, m.text])).toEqual(
      picked.map((p) => [p.item.index, p.text]),
    );
    expect(sampled.messages.at(0)?.index).toBe(0);
    expect(sampled.messages.at(-1)?.index).toBe(MESSAGES - 1);
  });
});
