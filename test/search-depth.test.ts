/**
 * Search depth from the command line: `--content` widens the search to thinking, tool calls and
 * tool output (and a default search never reaches them), and `--file` finds the sessions whose
 * tool calls touched a file, by relative or absolute path, or through a bash command.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

let agent: AgentDir;
let project: string;
let elsewhere: string;
const SESSION_ID = "0b1c2d3e-0000-4000-8000-000000000001";
const OTHER_ID = "0b1c2d3e-0000-4000-8000-000000000002";

/** A Pi v3 session file: the header, then `entries` (each a message), chained by parentId. */
function sessionFile(
  id: string,
  cwd: string,
  messages: { id: string; message: Record<string, unknown> }[],
): string {
  const start = Date.parse("2026-11-20T10:00:00.000Z");
  const lines = [
    { type: "session", version: 3, id, timestamp: new Date(start).toISOString(), cwd },
  ];
  let parentId: string | null = null;
  messages.forEach(({ id: entryId, message }, i) => {
    const time = start + (i + 1) * 1000;
    lines.push({
      type: "message",
      id: entryId,
      parentId,
      timestamp: new Date(time).toISOString(),
      message: { ...message, timestamp: time },
    } as never);
    parentId = entryId;
  });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

const text = (t: string) => [{ type: "text", text: t }];
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});
const result = (toolCallId: string, toolName: string, t: string) => ({
  role: "toolResult",
  toolCallId,
  toolName,
  content: text(t),
  isError: false,
});

beforeAll(() => {
  agent = makeAgentDir({ withFixtures: false });
  project = join(agent.root, "work", "project");
  elsewhere = join(agent.root, "work", "elsewhere");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(elsewhere, { recursive: true });
  const folder = join(agent.sessionsDir, "--work-project--");
  mkdirSync(folder);
  writeFileSync(
    join(folder, `2026-11-20T10-00-00-000Z_${SESSION_ID}.jsonl`),
    sessionFile(SESSION_ID, project, [
      {
        id: "e0000001",
        message: {
          role: "user",
          content: text("The zebra parser crashes on empty input, please fix it"),
        },
      },
      {
        id: "e0000002",
        message: {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "xylothink: the parser reads past the end" },
            ...text("Let me look."),
            call("c1", "read", { path: "src/app.ts" }),
          ],
        },
      },
      {
        id: "e0000003",
        message: result("c1", "read", "export function parse() { /* xylooutput */ }"),
      },
      {
        id: "e0000004",
        message: {
          role: "assistant",
          content: [
            call("c2", "edit", {
              path: join(project, "lib", "util.ts"),
              oldText: "a",
              newText: "b",
            }),
          ],
        },
      },
      { id: "e0000005", message: result("c2", "edit", "edited") },
      {
        id: "e0000006",
        message: {
          role: "assistant",
          content: [call("c3", "bash", { command: "npm test -- xylocall && cat docs/guide.md" })],
        },
      },
      {
        id: "e0000007",
        message: result("c3", "bash", "1 passed, xylogamma first, then a line later xylodelta"),
      },
      {
        id: "e0000008",
        message: { role: "assistant", content: text("Fixed: the parser now stops at the end.") },
      },
    ]),
  );
  writeFileSync(
    join(folder, `2026-11-20T11-00-00-000Z_${OTHER_ID}.jsonl`),
    sessionFile(OTHER_ID, elsewhere, [
      {
        id: "f0000001",
        message: {
          role: "user",
          content: text("Another zebra question, about src/app.ts in some other project"),
        },
      },
      {
        id: "f0000002",
        message: { role: "assistant", content: [call("d1", "read", { path: "src/app.ts" })] },
      },
      { id: "f0000003", message: result("d1", "read", "nothing here") },
      { id: "f0000004", message: { role: "assistant", content: text("Done.") } },
    ]),
  );
});
afterAll(() => agent.cleanup());

const recall = (args: string[], cwd?: string) =>
  runRecall(args, { env: agent.env, ...(cwd ? { cwd } : {}) });
type Hit = {
  id: string;
  message: { kind: string; tool?: string; entryId: string } | null;
  snippet: string;
  spans: [number, number][];
  calls?: { tool: string; path: string; entryId: string }[];
};
/** The marked words of a hit's snippet (spans are UTF-8 byte offsets). */
const marked = (hit: Hit) =>
  hit.spans.map(([start, end]) => Buffer.from(hit.snippet).subarray(start, end).toString());
const hits = async (args: string[], cwd?: string) => {
  const run = await recall(["search", "--json", ...args], cwd);
  expect(run.stderr).not.toMatch(/internal error/);
  return jsonLines<Hit>(run.stdout);
};

describe("--content", () => {
  const scopes = [
    {
      word: "xylothink",
      scope: "thinking",
      kind: "thinking",
      tool: undefined,
      entryId: "e0000002",
    },
    { word: "xylocall", scope: "calls", kind: "call", tool: "bash", entryId: "e0000006" },
    { word: "xylooutput", scope: "outputs", kind: "output", tool: "read", entryId: "e0000003" },
  ];

  for (const { word, scope, kind, tool, entryId } of scopes) {
    it(`${scope}: found with --content ${scope} or all, never by a default search`, async () => {
      const byDefault = await recall(["search", word]);
      expect(byDefault.code).toBe(1);
      expect(await hits(["--content", "conversation", word])).toEqual([]);
      for (const args of [
        ["--content", scope],
        ["--content", "all"],
        ["--content", `conversation,${scope}`],
      ]) {
        const [hit, ...rest] = await hits([...args, word]);
        expect(rest).toEqual([]);
        expect(hit).toMatchObject({
          id: SESSION_ID,
          message: { kind, entryId, ...(tool ? { tool } : {}) },
        });
      }
      // Another kind does not reach it either.
      const other = scopes.find((s) => s.scope !== scope)!.scope;
      expect(await hits(["--content", other, word])).toEqual([]);
    });
  }

  it("a hit in a tool output names the tool result that `recall read --mode raw` shows", async () => {
    const [hit] = await hits(["--content", "outputs", "xylooutput"]);
    const raw = jsonLines<{ type: string; entryId: string; role: string; text: string }>(
      (await recall(["read", "--mode", "raw", "--json", SESSION_ID])).stdout,
    );
    expect(raw.find((m) => m.entryId === hit!.message!.entryId)).toMatchObject({
      role: "toolResult",
      text: expect.stringContaining("xylooutput"),
    });
  });

  it("a hit in a tool output gets its snippet from the session file, its words marked", async () => {
    const [hit] = await hits(["--content", "outputs", "xylooutput"]);
    expect(hit!.snippet).toMatch(/^export function parse\(\) \{ \/\* xylooutput/);
    expect(marked(hit!)).toEqual(["xylooutput"]);
    const [prefixed] = await hits(["--content", "all", "--prefix", "xylodel"]);
    expect(prefixed).toMatchObject({ message: { kind: "output", entryId: "e0000007" } });
    expect(marked(prefixed!)).toEqual(["xylodelta"]);
  });

  it("an output hit whose file changed since it was indexed has an empty snippet, not an error", async () => {
    const changed = makeAgentDir({ withFixtures: false });
    try {
      mkdirSync(join(changed.sessionsDir, "--work-elsewhere--"));
      const file = join(
        changed.sessionsDir,
        "--work-elsewhere--",
        `2026-11-20T10-00-00-000Z_${OTHER_ID}.jsonl`,
      );
      const entries = [
        { id: "g0000001", message: { role: "user", content: text("Run the tests please") } },
        { id: "g0000002", message: result("x1", "bash", "xylochanged: 3 failed") },
      ];
      writeFileSync(file, sessionFile(OTHER_ID, elsewhere, entries));
      const search = (args: string[]) =>
        runRecall(["search", "--json", "--content", "outputs", ...args, "xylochanged"], {
          env: changed.env,
        });
      expect(jsonLines<Hit>((await search([])).stdout)[0]!.snippet).toMatch(/^xylochanged/);
      writeFileSync(file, sessionFile(OTHER_ID, elsewhere, entries.slice(0, 1)));
      const run = await search(["--no-sync"]);
      expect(run.stderr).toBe("");
      expect(jsonLines<Hit>(run.stdout)).toMatchObject([
        { id: OTHER_ID, message: { kind: "output", entryId: "g0000002" }, snippet: "", spans: [] },
      ]);
    } finally {
      changed.cleanup();
    }
  });

  it("a quoted phrase matches an output holding all of its words, in the conversation only in a row", async () => {
    expect(
      (await hits(["--content", "outputs", '"xylodelta xylogamma"'])).map(
        (h) => h.message?.entryId,
      ),
    ).toEqual(["e0000007"]);
    expect(await hits(["--content", "outputs", '"xylodelta xyloabsent"'])).toEqual([]);
    expect(
      (await hits(["--content", "all", '"parser crashes"'])).map((h) => h.message?.kind),
    ).toEqual(["conversation"]);
    expect(await hits(["--content", "all", '"crashes parser"'])).toEqual([]);
  });

  it("a misspelt word is read as the nearest word the searched text holds, and an output hit's snippet marks it", async () => {
    const [output] = await hits(["--typos", "correct", "--content", "outputs", "xyloutput"]);
    expect(output).toMatchObject({
      id: SESSION_ID,
      message: { kind: "output", entryId: "e0000003" },
    });
    expect(marked(output!)).toEqual(["xylooutput"]);
    expect((await hits(["--typos", "correct", "zebar"])).map(marked)).toEqual([
      ["zebra"],
      ["zebra"],
    ]);
    expect((await recall(["search", "--typos", "correct", '"zebar"'])).code).toBe(1);
    // Said on stderr, in human and JSON output alike; nothing when every word is held.
    for (const args of [
      ["--typos", "correct", "zebar", "parser"],
      ["--typos", "correct", "--json", "zebar", "parser"],
    ]) {
      const run = await recall(["search", ...args]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('recall: no session holds "zebar": read as "zebra", one typo away\n');
    }
    expect((await recall(["search", "zebra", "parser"])).stderr).toBe("");
  });

  it("an output snippet reads a misspelt word as the whole search did, not as tool output alone would", async () => {
    // `zebru` is one edit from `zebra` (said four times in all) and from `zebre` (twice, in tool
    // output only): the search reads `zebra`, and so must the snippet of its output hit.
    const typo = makeAgentDir({ withFixtures: false });
    try {
      const folder = join(typo.sessionsDir, "--work-elsewhere--");
      mkdirSync(folder);
      const write = (id: string, entries: { id: string; message: Record<string, unknown> }[]) =>
        writeFileSync(
          join(folder, `2026-11-20T10-00-00-000Z_${id}.jsonl`),
          sessionFile(id, elsewhere, entries),
        );
      write(SESSION_ID, [
        {
          id: "h0000001",
          message: { role: "user", content: text("Look at the crossing log please") },
        },
        { id: "h0000002", message: result("x1", "bash", "zebra crossing, 2 cars") },
      ]);
      write(OTHER_ID, [
        {
          id: "i0000001",
          message: { role: "user", content: text("zebra one, zebra two, zebra three") },
        },
        { id: "i0000002", message: result("x2", "bash", "zebre one") },
        { id: "i0000003", message: { role: "assistant", content: text("ok") } },
        { id: "i0000004", message: result("x3", "bash", "zebre two") },
      ]);
      const found = jsonLines<Hit>(
        (
          await runRecall(["search", "--json", "--typos", "correct", "--content", "all", "zebru"], {
            env: typo.env,
          })
        ).stdout,
      );
      const output = found.find((hit) => hit.id === SESSION_ID);
      expect(output).toMatchObject({ message: { kind: "output", entryId: "h0000002" } });
      expect(marked(output!)).toEqual(["zebra"]);
    } finally {
      typo.cleanup();
    }
  });

  it("says which kind matched in the text output, and refuses an unknown kind", async () => {
    const run = await recall(["search", "--content", "outputs", "xylooutput"]);
    expect(run.stdout).toContain("read output");
    const bad = await recall(["search", "--content", "everything", "zebra"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^recall: unknown content "everything"/);
  });
});

describe("--file", () => {
  it("a relative path, taken from the current folder, finds the session whose read used it", async () => {
    const found = await hits(["--file", "src/app.ts"], project);
    expect(found.map((h) => h.id)).toEqual([SESSION_ID]);
    expect(found[0]!.calls).toEqual([
      { tool: "read", path: join(project, "src", "app.ts"), entryId: "e0000002" },
    ]);
    expect((await hits(["--file", "src/app.ts"], elsewhere)).map((h) => h.id)).toEqual([OTHER_ID]);
  });

  it("an absolute path matches a call that used a relative one, and a relative path one that used an absolute one", async () => {
    expect(
      (await hits(["--file", join(project, "src", "app.ts")], agent.root)).map((h) => h.id),
    ).toEqual([SESSION_ID]);
    expect((await hits(["--file", "lib/util.ts"], project)).map((h) => h.id)).toEqual([SESSION_ID]);
    const listed = await recall(["list", "--json", "--file", "lib/util.ts"], project);
    expect(jsonLines<{ id: string }>(listed.stdout).map((s) => s.id)).toEqual([SESSION_ID]);
  });

  it("a file a bash command named counts", async () => {
    const [hit] = await hits(["--file", "docs/guide.md"], project);
    expect(hit).toMatchObject({ id: SESSION_ID, calls: [{ tool: "bash", entryId: "e0000006" }] });
  });

  it("combines with words and --here; a file nothing touched finds nothing", async () => {
    expect(
      (await hits(["--file", join(project, "src", "app.ts"), "zebra"], agent.root)).map(
        (h) => h.id,
      ),
    ).toEqual([SESSION_ID]);
    expect(await hits(["--file", join(project, "src", "app.ts"), "giraffe"], agent.root)).toEqual(
      [],
    );
    expect(await hits(["--here", "--file", join(project, "src", "app.ts")], elsewhere)).toEqual([]);
    const none = await recall(["list", "--file", "nothing-touched-this.ts"], project);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/that touched .*nothing-touched-this\.ts/);
    const search = await recall(["search"]);
    expect(search.code).toBe(2);
  });
});
