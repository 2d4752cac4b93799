/** `recall doctor` finds what is wrong, says which command fixes it, and exits 2 until it is fixed. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { damageFile, segmentFiles } from "../helpers/damage.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

interface Check {
  type: string;
  name: string;
  ok: boolean;
  message: string;
  fix: string | null;
}

async function doctor(args: string[] = []): Promise<{ code: number | null; checks: Check[]; summary: Record<string, unknown> }> {
  const result = await runRecall(["doctor", "--json", ...args], { env: agent.env });
  const lines = jsonLines<Check>(result.stdout);
  return { code: result.code, checks: lines.filter((l) => l.type === "check"), summary: lines.at(-1) as unknown as Record<string, unknown> };
}

const failing = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => [c.name, c.fix]);

describe("recall doctor", () => {
  it("a healthy setup: every check passes, exit 0", async () => {
    agent = makeAgentDir();
    expect((await runRecall(["index"], { env: agent.env })).code).toBe(0);
    expect((await runRecall(["tag", "01a0f6b1", "checked"], { env: agent.env })).code).toBe(0);
    const { code, checks, summary } = await doctor();
    expect(checks.map((c) => c.name)).toEqual(["sessions", "index", "tags", "config", "watcher"]);
    expect(failing(checks)).toEqual([]);
    expect(summary).toEqual({ type: "summary", ok: true, checks: 5, failed: 0 });
    expect(code).toBe(0);
    const human = await runRecall(["doctor"], { env: agent.env });
    expect(human.stdout).toMatch(/^ok {4}sessions: /);
    expect(human.code).toBe(0);
  });

  it("an index behind the session files, then a damaged index file: `recall index` fixes both", async () => {
    agent = makeAgentDir();
    expect(failing((await doctor()).checks)).toEqual([["index", "recall index"]]);
    await runRecall(["index"], { env: agent.env });
    // Damage no write made (the file's time kept): only a check of every file finds it.
    damageFile(segmentFiles(join(agent.agentDir, "cache", "recall", "index"), "pos")[0]!, 5, { keepTime: true });
    const damaged = await doctor();
    expect(damaged.code).toBe(2);
    expect(failing(damaged.checks)).toEqual([["index", "recall index"]]);
    // Found by the check of every file, or already when opening (a file changed within the last
    // commit's second is checked then): either way the damaged file is named.
    expect(damaged.checks[1]!.message).toMatch(/fail their checksum \(.*\.pos\)|failed their checksum: .*\.pos/);
    expect((await runRecall(["index"], { env: agent.env })).code).toBe(0);
    expect((await doctor()).code).toBe(0);
  });

  it("a garbage tag database, a config that does not parse, a sessions folder that is not there", async () => {
    agent = makeAgentDir();
    await runRecall(["index"], { env: agent.env });
    mkdirSync(join(agent.agentDir, "recall"), { recursive: true });
    writeFileSync(join(agent.agentDir, "recall", "tags.db"), "this is not a database, it only has its name\n".repeat(100));
    writeFileSync(join(agent.agentDir, "recall", "config.json"), "{ picker: ");
    const { code, checks, summary } = await doctor();
    expect(code).toBe(2);
    expect(failing(checks).map(([name]) => name)).toEqual(["tags", "config"]);
    expect(checks.find((c) => c.name === "tags")!.message).toMatch(/cannot be read as a tag database/);
    expect(summary).toMatchObject({ ok: false, failed: 2 });

    const missing = await doctor(["--sessions-dir", join(agent.root, "no-such-folder")]);
    expect(missing.code).toBe(2);
    expect(missing.checks[0]).toMatchObject({ name: "sessions", ok: false, message: expect.stringContaining("no-such-folder") });
    const human = await runRecall(["doctor"], { env: agent.env });
    expect(human.stdout).toMatch(/^FAIL {2}tags: .*\n {6}fix: /m);
    expect(human.stderr).toBe("recall: 2 of 5 checks failed\n");
  });
});
