// recall's own parser for `search` and `list` (src/cli/quick-parse.ts) must make exactly the
// command clipanion makes of a command line, or decline it; and the quick bundle that uses it must
// keep clipanion's Cli, tty and net out of a piped search (src/cli/quick.ts, bin/recall.cjs).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "clipanion";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListCommand } from "../src/cli/commands/list.js";
import { SearchCommand } from "../src/cli/commands/search.js";
import { PickCommand } from "../src/cli/commands/pick.js";
import { ReadCommand } from "../src/cli/commands/read.js";
import { RelatedCommand } from "../src/cli/commands/related.js";
import type { RecallContext } from "../src/cli/context.js";
import { buildCli } from "../src/cli/main.js";
import { quickCommand } from "../src/cli/quick-parse.js";
import { withDashWordsLast } from "../src/cli/query-words.js";
import { withAttachedValuesApart } from "../src/cli/attached-values.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { RECALL_BIN } from "./helpers/run-cli.js";

const CLASSES = { search: SearchCommand, list: ListCommand, related: RelatedCommand } as const;

const context = (env: NodeJS.ProcessEnv = {}): RecallContext =>
  ({
    env,
    cwd: "/home/dev/recall",
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    colorDepth: 1,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  }) as RecallContext;

/** A command's fields as its options set them: what the command runs with. */
function fields(command: Command<RecallContext>): Record<string, unknown> {
  const { context: _context, cli: _cli, ...rest } = command as unknown as Record<string, unknown>;
  return rest;
}

function quick(argv: string[], env?: NodeJS.ProcessEnv) {
  return quickCommand(CLASSES[argv[0] as keyof typeof CLASSES], argv, context(env));
}

function byClipanion(argv: string[], env?: NodeJS.ProcessEnv): Command<RecallContext> {
  return buildCli(argv[0]).process(argv, context(env)) as Command<RecallContext>;
}

// Lines the quick parser takes: each must come out as clipanion makes it.
const TAKEN = [
  ["search", "websocket"],
  ["search", "websocket", "reconnect"],
  ["search", "--limit", "5", "deploy"],
  ["search", "-n", "3", "deploy", "--json"],
  ["search", "--limit=7", "deploy"],
  ["search", "deploy", "--here", "--since", "7d", "--until", "today"],
  ["search", "--no-sync", "--prefix", "dep"],
  ["search", "--no-sync", "--no-sync", "x"],
  ["search", "-n", "2", "-n", "4", "x"],
  ["search", "--format", "tsv", "-0", "x"],
  ["search", "--color", "always", "x"],
  ["search", "--cwd", "/tmp/a b", "--sessions-dir", "/tmp/s", "x"],
  ["search", "--", "helm", "-#wip"],
  ["search", "helm #k8s -#wip"],
  ["search", "x", "--", "--json"],
  ["search", "", "x"],
  ["list"],
  ["list", "-n", "3"],
  ["list", "--json", "--here"],
  ["list", "--format=path", "--null"],
  ["list", "--since", "2026-11-01", "--no-sync"],
  ["list", "--"],
];

// Lines it leaves to clipanion: help, mistakes, and forms it does not read.
// (`search` without words is no parse error: `--file` alone is a search; the command says what is
// missing.)
const DECLINED = [
  ["search", "--sync", "x"],
  ["search", "-h"],
  ["search", "--help"],
  ["search", "x", "--help"],
  ["search", "--limit"],
  ["search", "x", "--limit"],
  ["search", "--limit", "--json", "x"],
  ["search", "--limit", "zero", "x"],
  ["search", "--limit", "-5", "x"],
  ["search", "--limit=", "x"],
  ["search", "--color", "bogus", "x"],
  ["search", "--format", "xml", "x"],
  ["search", "--bogus", "x"],
  ["search", "-j", "x"],
  ["search", "-0n", "5", "x"],
  ["search", "--json=yes", "x"],
  ["search", "--no-limit", "x"],
  ["search", "-", "x"],
  ["list", "word"],
  ["list", "--", "word"],
  ["list", "--help"],
];

describe("the quick parser", () => {
  it.each(TAKEN.map((argv) => [argv.join(" "), argv]))(
    "takes `%s` as clipanion does",
    (_, argv) => {
      const command = quick(argv);
      expect(command).toBeDefined();
      expect(command).toBeInstanceOf(CLASSES[argv[0] as keyof typeof CLASSES]);
      expect(fields(command!)).toEqual(fields(byClipanion(argv)));
    },
  );

  it.each(DECLINED.map((argv) => [argv.join(" "), argv]))("leaves `%s` to clipanion", (_, argv) => {
    expect(quick(argv)).toBeUndefined();
  });

  it("sets the options clipanion sets, each from its own definition", () => {
    const command = quick([
      "search",
      "-n",
      "3",
      "--no-sync",
      "--format=tsv",
      "a",
      "--",
      "-b",
    ]) as SearchCommand;
    expect([
      command.limit,
      command.noSync,
      command.format,
      command.query,
      command.json,
      command.color,
      command.path,
    ]).toEqual([3, true, "tsv", ["a", "-b"], false, "auto", ["search"]]);
  });
});

// Query words that start with a dash, as both parsers get them (src/cli/query-words.ts).
const DASH_WORDS: [string[], string[]][] = [
  [
    ["search", "-#wip", "deploy"],
    ["-#wip", "deploy"],
  ],
  [["search", "-x"], ["-x"]],
  [
    ["search", "deploy", "-#wip", "--limit", "3"],
    ["deploy", "-#wip"],
  ],
  [
    ["search", "-n", "3", "-#wip", "--json", "x"],
    ["-#wip", "x"],
  ],
  [["search", "-0", "--format", "tsv", "-#wip"], ["-#wip"]],
  [
    ["search", "--limit=4", "-#wip", "--", "--json"],
    ["-#wip", "--json"],
  ],
  [["pick", "-#wip", "--here"], ["-#wip"]],
];

describe("query words that start with a dash", () => {
  it.each(DASH_WORDS.map(([argv, query]) => [argv.join(" "), argv, query]))(
    "`%s` is a query, options kept",
    (_, argv, query) => {
      const command = buildCli(argv[0]).process(
        [...withDashWordsLast(CLASSES[argv[0] as keyof typeof CLASSES] ?? PickCommand, argv)],
        context(),
      ) as SearchCommand;
      expect(command.query).toEqual(query);
      if (argv[0] === "search") {
        const quickly = quick([...withDashWordsLast(SearchCommand, argv)]);
        if (quickly) expect(fields(quickly)).toEqual(fields(command));
      }
    },
  );

  it("leaves lines without such words, and other commands' lines, as they are", () => {
    const line = ["search", "--limit", "3", "deploy"];
    expect(withDashWordsLast(SearchCommand, line)).toBe(line);
    const read = ["read", "-x"];
    expect(withDashWordsLast(ReadCommand, read)).toBe(read);
    expect(withDashWordsLast(SearchCommand, ["search", "--bogus", "x"])).toEqual([
      "search",
      "--bogus",
      "x",
    ]);
  });
});

// Values attached to short options, as both parsers get them (src/cli/attached-values.ts).
const ATTACHED: [string[], string[]][] = [
  [
    ["search", "-n5", "x"],
    ["search", "-n", "5", "x"],
  ],
  [
    ["list", "-n2"],
    ["list", "-n", "2"],
  ],
  [
    ["search", "x", "-n1", "--json"],
    ["search", "x", "-n", "1", "--json"],
  ],
  [
    ["search", "--since", "-n1", "x"],
    ["search", "--since", "-n1", "x"],
  ],
  [
    ["search", "--", "-n1"],
    ["search", "--", "-n1"],
  ],
  [
    ["search", "-x1", "deploy"],
    ["search", "-x1", "deploy"],
  ],
  // A command with a positional value (its session) splits them too.
  [
    ["related", "-n3", "abc"],
    ["related", "-n", "3", "abc"],
  ],
  [
    ["related", "abc", "-n3", "--json"],
    ["related", "abc", "-n", "3", "--json"],
  ],
];

describe("values attached to short options", () => {
  it.each(ATTACHED.map(([argv, split]) => [argv.join(" "), argv, split]))(
    "`%s` is read as clipanion reads it split",
    (_, argv, split) => {
      const commandClass = CLASSES[argv[0] as keyof typeof CLASSES];
      expect(withAttachedValuesApart(commandClass, argv)).toEqual(split);
    },
  );

  it("gives both parsers the same command", () => {
    for (const argv of [
      ["search", "-n5", "x"],
      ["list", "-n2", "--json"],
    ]) {
      const commandClass = CLASSES[argv[0] as keyof typeof CLASSES];
      const split = [...withAttachedValuesApart(commandClass, argv)];
      expect(fields(quick(split)!)).toEqual(fields(byClipanion(split)));
    }
  });
});

describe("the quick bundle", () => {
  let agent: AgentDir;
  let dir: string;
  beforeAll(() => {
    agent = makeAgentDir();
    dir = mkdtempSync(join(tmpdir(), "recall-quick-"));
    // Which of Node's own modules the process loaded, on stderr as it ends.
    writeFileSync(
      join(dir, "modules.cjs"),
      `process.on("exit", () => require("node:fs").writeSync(2, "\\nmodules: " + process.moduleLoadList.join(",")));`,
    );
  });
  afterAll(() => {
    agent.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]) => {
    const child = spawnSync(
      process.execPath,
      ["--require", join(dir, "modules.cjs"), RECALL_BIN, ...args],
      { env: agent.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    const modules = child.stderr.split("\nmodules: ").at(-1)!.split(",");
    return { code: child.status, stdout: child.stdout, modules };
  };

  // tty and net are what creating the std streams loads; crypto (which loads all of Node's streams)
  // is what a SHA-1 on the way costs: each is milliseconds of every cold search.
  it("answers a piped search and list without loading tty, net or crypto", () => {
    // The index made first, as it is on every search but a user's first.
    expect(run("index").code).toBe(0);
    for (const args of [
      ["search", "deploy", "--limit", "2"],
      ["list", "-n", "2"],
    ]) {
      const { code, stdout, modules } = run(...args);
      expect(code, args.join(" ")).toBe(0);
      expect(stdout).not.toBe("");
      expect(modules).not.toContain("NativeModule tty");
      expect(modules).not.toContain("NativeModule net");
      expect(modules).not.toContain("NativeModule crypto");
    }
  });

  it("leaves what it declines to the whole CLI, which answers as before", () => {
    const help = run("search", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^recall search: find the Pi sessions that talked about something/);
    expect(help.modules).toContain("NativeModule tty");
    const mistake = spawnSync(process.execPath, [RECALL_BIN, "search", "--limit", "zero", "x"], {
      env: agent.env,
      encoding: "utf8",
    });
    expect([mistake.status, mistake.stdout, mistake.stderr]).toEqual([
      2,
      "",
      'recall: invalid value for --limit: expected a number (got "zero") (`recall search --help` shows the usage)\n',
    ]);
  });
});
