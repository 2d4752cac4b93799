/**
 * A generated set of Pi sessions for the archive's tests of larger pushes: `count` sessions of
 * `messages` messages each, users and assistants in turn (so none is joined with the next), in
 * one existing folder, with a GitHub token to redact in each session's fifth message.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDir } from "./agent-dir.js";
import { userMessage } from "./fixture-files.js";

export const GENERATED_TOKEN = `ghp_${"Zx7Qw3rTy9".repeat(4).slice(0, 36)}`;

const sessionId = (n: number) => `0c${String(n).padStart(6, "0")}-1111-7222-8333-944445555666`;

function assistantMessage(id: string, text: string, ms: number): string {
  return `${JSON.stringify({ type: "message", id, parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "assistant", content: [{ type: "text", text }], timestamp: ms } })}\n`;
}

function generatedSession(cwd: string, n: number, messages: number): string {
  const at = Date.parse("2026-10-10T00:00:00Z") + n * 60_000;
  let text = `${JSON.stringify({ type: "session", version: 3, id: sessionId(n), timestamp: new Date(at).toISOString(), cwd })}\n`;
  for (let m = 0; m < messages; m++) {
    const words = `session ${n} message ${m}: the gannet migration report, part ${m}, ${"with some padding words ".repeat(20)}`;
    const entryId = `e${String(n).padStart(3, "0")}${String(m).padStart(4, "0")}`;
    text +=
      m % 2 === 0
        ? userMessage(entryId, m === 4 ? `${words} token ${GENERATED_TOKEN}` : words, at + m * 1000)
        : assistantMessage(entryId, words, at + m * 1000);
  }
  return text;
}

/**
 * Writes the sessions into the agent folder's sessions, in Pi's folder for `<root>/work/birds`;
 * their paths.
 */
export function writeGeneratedSessions(agent: AgentDir, count: number, messages: number): string[] {
  const cwd = join(realpathSync(agent.root), "work", "birds");
  mkdirSync(cwd, { recursive: true });
  const folder = join(agent.sessionsDir, `--${cwd.slice(1).replace(/\//g, "-")}--`);
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: count }, (_, n) => {
    const path = join(folder, `2026-10-10T00-00-00-000Z_${sessionId(n)}.jsonl`);
    writeFileSync(path, generatedSession(cwd, n, messages));
    return path;
  });
}
