/**
 * The `--json` wire format is src/cli/wire.ts (ARCHITECTURE.md): every record a command prints is
 * built there, field by field, with types written out rather than derived from the library's, so
 * a changed library type cannot change the output unnoticed. Checked in the source, and on the
 * records the commands print.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const CLI = fileURLToPath(new URL("../src/cli", import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );

describe("the wire format in the source", () => {
  it("no command builds a JSON record itself: each JSON.stringify takes one of wire.ts's", () => {
    for (const file of sources(CLI).filter((f) => !f.endsWith("wire.ts"))) {
      for (const [, argument] of readFileSync(file, "utf8").matchAll(/JSON\.stringify\(([^)]*)/g)) {
        expect(argument, file).toMatch(/^([a-z][A-Za-z]*Record|wire)\(/);
      }
    }
  });

  it("wire.ts derives no type from the library's", () => {
    const wire = readFileSync(join(CLI, "wire.ts"), "utf8");
    expect(wire).not.toMatch(/\b(Pick|Omit|Partial|Required|ReturnType|Parameters)</);
    expect(wire).not.toMatch(/:\s*[A-Z][A-Za-z]*\["[a-z]/);
    expect(wire).not.toMatch(
      /\bextends (SessionSummary|SearchHit|ReadMessage|ReadPage|ContextMessage|ContextSummary|DoctorCheck|SyncReport)\b/,
    );
  });
});

describe("the records the commands print", () => {
  let agent: AgentDir;
  beforeAll(() => {
    agent = makeAgentDir();
  });
  afterAll(() => agent.cleanup());
  const recall = (...args: string[]) => runRecall(args, { env: agent.env, cwd: agent.root });

  it("index and doctor print exactly their documented fields", async () => {
    const index = jsonLines((await recall("index", "--json")).stdout);
    expect(Object.keys(index.at(-1)!)).toEqual([
      "type",
      "discovered",
      "indexed",
      "appended",
      "removed",
      "unchanged",
      "failed",
      "malformedLines",
      "rebuilt",
      "elapsedMs",
      "sessionsDir",
      "indexDir",
    ]);
    const doctor = jsonLines((await recall("doctor", "--json")).stdout);
    expect(Object.keys(doctor[0]!)).toEqual(["type", "name", "ok", "message", "fix"]);
    expect(Object.keys(doctor.at(-1)!)).toEqual(["type", "ok", "checks", "failed"]);
  });
});
