/**
 * `recall index` stopped with Ctrl-C: on a real terminal (util-linux `script`), the ^C typed while
 * its progress bar runs. It says what it left, and a stopped rebuild leaves the index it had.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellQuote } from "../src/output/shell.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, RECALL_BIN, runRecall } from "./helpers/run-cli.js";

const hasScript = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;

/** Enough sessions that a rebuild runs for a while: 300 files of ~60 KB. */
function manySessions(dir: AgentDir): void {
  const folder = join(dir.sessionsDir, "--tmp-many--");
  mkdirSync(folder, { recursive: true });
  const filler = "lorem ipsum dolor sit amet consectetur ".repeat(12);
  for (let n = 0; n < 300; n++) {
    const id = `0190aaaa-0000-7000-8000-${String(n).padStart(12, "0")}`;
    const entries: object[] = [
      { type: "session", version: 3, id, timestamp: "2026-10-02T10:00:00.000Z", cwd: "/tmp/many" },
    ];
    for (let m = 0; m < 120; m++) {
      entries.push({
        type: "message",
        id: `e${m}`,
        parentId: m ? `e${m - 1}` : null,
        timestamp: "2026-10-02T10:00:01.000Z",
        message: {
          role: m % 2 ? "assistant" : "user",
          content: [{ type: "text", text: `manyword${n} ${filler}` }],
        },
      });
    }
    writeFileSync(
      join(folder, `2026-10-02T10-00-00-000Z_${id}.jsonl`),
      entries.map((e) => JSON.stringify(e)).join("\n") + "\n",
    );
  }
}

describe.skipIf(!hasScript)(
  `recall index stopped with Ctrl-C (script)${hasScript ? "" : " (skipped: script is not installed)"}`,
  () => {
    let dir: AgentDir;
    beforeAll(() => {
      dir = makeAgentDir();
      manySessions(dir);
    });
    afterAll(() => dir.cleanup());

    it("a rebuild says the index it had is kept, and it is", { timeout: 120_000 }, async () => {
      expect((await runRecall(["index", "-q"], { env: dir.env })).code).toBe(0);
      const before = jsonLines<{ id: string }>(
        (await runRecall(["search", "--no-sync", "--json", "-n", "400", "lorem"], { env: dir.env }))
          .stdout,
      ).map((h) => h.id);
      expect(before).toHaveLength(300);

      const command = [process.execPath, RECALL_BIN, "index", "--rebuild"]
        .map(shellQuote)
        .join(" ");
      const child = spawn("script", ["-qec", command, "/dev/null"], {
        env: { ...dir.env, TERM: "xterm-256color" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let seen = "";
      let typed = false;
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        seen += d;
        // The progress bar: the rebuild is under way.
        if (!typed && /\d+\/\d+ files/.test(seen)) {
          typed = true;
          child.stdin.write("\x03");
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(typed).toBe(true);
      expect(code).toBe(130);
      expect(seen).toContain("recall: stopped: the index was not rebuilt, the one it had is kept");
      expect(seen).not.toMatch(/session files: \d+ indexed/);

      const after = jsonLines<{ id: string }>(
        (await runRecall(["search", "--no-sync", "--json", "-n", "400", "lorem"], { env: dir.env }))
          .stdout,
      ).map((h) => h.id);
      expect(after.sort()).toEqual(before.sort());
    });
  },
);
