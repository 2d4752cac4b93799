// The command-line parsers compiled when the bundle is built (src/cli/precompiled-parser.ts,
// scripts/bundle-cli.mjs): they must be what clipanion compiles from the commands, the bundle must
// use them, and they must read every command line as clipanion's own parser does.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { buildCli, compileParser, parserKeys } from "../src/cli/main.js";
import { usePrecompiledParser } from "../src/cli/precompiled-parser.js";

const PARSERS = new URL("../dist/bundle/parsers/", import.meta.url);
const bundled = createRequire(import.meta.url)("../dist/bundle/cli.cjs") as { buildCli: typeof buildCli };

type Builder = { precompiledMachine?: unknown };
const builderOf = (cli: ReturnType<typeof buildCli>) => (cli as unknown as { builder: Builder }).builder;

/** What a parser made of a command line: the command and its options, or the error. */
function parse(cli: ReturnType<typeof buildCli>, argv: string[]): unknown {
  try {
    const command = cli.process(argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {}, colorDepth: 1 } as never);
    const { context: _context, cli: _cli, ...fields } = command as unknown as Record<string, unknown>;
    return { command: command.constructor.name, fields };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe("precompiled parsers", () => {
  it("are what clipanion compiles from the commands, one for each command and one for all", () => {
    for (const key of parserKeys()) {
      const stored = readFileSync(new URL(`${key}.json`, PARSERS), "utf8");
      expect(stored, key).toBe(compileParser(buildCli(key === "all" ? undefined : key)));
    }
    expect(parserKeys()).toContain("search");
    expect(parserKeys()).toContain("all");
  });

  it("are used by the bundle, and read command lines as clipanion's own parser does", () => {
    const lines = [
      ["search", "staging", "deploy"],
      ["search", "--json", "-n", "5", "--since", "7d", "--here", "helm", "#k8s"],
      ["search", "--limit=3", "--no-sync", "--color", "never", "--", "-#wip", "x"],
      ["search", "-0", "--format", "path", "x"],
      ["search"],
      ["search", "--limt", "3", "x"],
      ["search", "-n"],
      ["search", "--help"],
      ["list", "--json", "--here"],
      ["read", "abc", "--max-chars", "100"],
      ["tag", "abc", "#one", "#two"],
      ["index", "--rebuild"],
      ["watch", "-q"],
      ["completion", "bash"],
      ["--version"],
      ["--help"],
      ["serch", "x"],
      [],
    ];
    for (const argv of lines) {
      const withStored = bundled.buildCli(argv[0]);
      expect(builderOf(withStored).precompiledMachine, argv.join(" ")).toBeDefined();
      const compiled = bundled.buildCli(argv[0]);
      delete builderOf(compiled).precompiledMachine;
      expect(parse(withStored, argv), argv.join(" ")).toEqual(parse(compiled, argv));
    }
    // The machine the builder holds is the one that parses: an empty one parses nothing.
    const emptied = bundled.buildCli("search");
    builderOf(emptied).precompiledMachine = { nodes: [] };
    expect(parse(emptied, ["search", "x"])).toEqual({ error: expect.any(String) });
    expect(parse(bundled.buildCli("search"), ["search", "x"])).toMatchObject({ fields: { query: ["x"] } });
  });

  it("are not used for other commands, or when unreadable", () => {
    const folder = mkdtempSync(join(tmpdir(), "recall-parsers-"));
    try {
      const list = buildCli("list");
      expect(usePrecompiledParser(list, new URL("search.json", PARSERS))).toBe(false);
      expect(builderOf(list).precompiledMachine).toBeUndefined();
      const garbled = join(folder, "search.json");
      writeFileSync(garbled, "{ not json");
      expect(usePrecompiledParser(buildCli("search"), pathToFileURL(garbled))).toBe(false);
      expect(usePrecompiledParser(buildCli("search"), pathToFileURL(join(folder, "missing.json")))).toBe(false);
      expect(usePrecompiledParser(buildCli("search"), new URL("search.json", PARSERS))).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
