/**
 * Help that teaches, as rg's does (issue 29): a synopsis with its operands, typed placeholders,
 * defaults, one column of descriptions, a short usage on stderr for `recall` alone, and the
 * options every command has said once in `recall --help`. The man pages are generated from the
 * same definitions (shell-integration.test.ts checks they are current).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runRecall } from "./helpers/run-cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const env = { PATH: process.env.PATH ?? "", HOME: "/nonexistent", NO_COLOR: "1" };
const recall = (...args: string[]) => runRecall(args, { env });

/**
 * The option lines of a help text: ` -n, --limit N Show…`, with where the description starts.
 */
function optionLines(help: string): { names: string; column: number }[] {
  const section = help.slice(help.indexOf("Options:"));
  return section
    .split("\n")
    .map((line) => /^( {2}(-\S.*?))( {2,})(\S.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ names: match[2]!, column: match[1]!.length + match[3]!.length }));
}

describe("recall search --help", () => {
  it("gives the synopsis with its operands", async () => {
    const help = await recall("search", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: recall search [options] <query…>");
    expect(help.stdout).toContain("recall search [options] --file PATH [query…]");
  });

  it("names each value by its kind, never <value>", async () => {
    const { stdout } = await recall("search", "--help");
    expect(stdout).not.toMatch(/<value>/);
    const names = optionLines(stdout).map((line) => line.names);
    for (const expected of [
      "-n, --limit N",
      "--since T",
      "--until T",
      "--cwd DIR",
      "--content KINDS",
      "--file PATH",
      "--format FORMAT",
      "--color WHEN",
    ]) {
      expect(names, expected).toContain(expected);
    }
  });

  it("says the defaults", async () => {
    const { stdout } = await recall("search", "--help");
    expect(stdout).toMatch(/Show at most N sessions \(default 20\)/);
    expect(stdout).toMatch(/\(default\s+conversation;/);
    expect(stdout).toMatch(/\(default\s+auto\)/);
  });

  it("starts every description in one column", async () => {
    for (const command of ["search", "list", "read", "index"]) {
      const { stdout } = await recall(command, "--help");
      const lines = optionLines(stdout);
      expect(lines.length, command).toBeGreaterThan(3);
      expect(
        new Set(lines.map((line) => line.column)).size,
        `${command}: ${JSON.stringify(lines)}`,
      ).toBe(1);
    }
  });
});

describe("recall alone and recall --help", () => {
  it("recall alone prints a short usage on stderr and exits 2, as rg does", async () => {
    const alone = await recall();
    expect(alone.code).toBe(2);
    expect(alone.stdout).toBe("");
    expect(alone.stderr).toMatch(/^usage: recall <command>/);
    expect(alone.stderr.split("\n").filter(Boolean).length).toBeLessThanOrEqual(3);
  });

  it("recall --help lists the commands and says the options of every command once", async () => {
    const help = await recall("--help");
    expect(help.code).toBe(0);
    for (const command of ["search", "list", "read", "index", "tag", "pick"])
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command} +\\S`, "m"));
    expect(help.stdout.match(/--sessions-dir/g)).toHaveLength(1);
    expect(help.stdout.match(/--color/g)).toHaveLength(1);
  });
});

describe("man pages", () => {
  it("give the synopsis with its operands and typed values", () => {
    const page = readFileSync(`${ROOT}/man/recall-search.1`, "utf8");
    const synopsis = page.slice(
      page.indexOf(".SH SYNOPSIS"),
      page.indexOf(".SH", page.indexOf(".SH SYNOPSIS") + 4),
    );
    expect(synopsis).toMatch(/recall search \[options\] <query/);
    expect(page).not.toMatch(/<value>/);
    expect(page).toContain("\\fB\\-\\-limit\\fR \\fIN\\fR");
  });
});

describe("help asked for after a command's operands", () => {
  it("gives the command's help wherever -h or --help comes, and searches for it after --", async () => {
    for (const args of [
      ["search", "foo", "--help"],
      ["remote", "add", "-h"],
      ["tag", "abc", "--help"],
      ["push", "--forget", "x", "-h"],
    ]) {
      const help = await recall(...args);
      expect(help.code, args.join(" ")).toBe(0);
      expect(help.stdout, args.join(" ")).toContain(`Usage: recall ${args[0]} [options]`);
      expect(help.stderr, args.join(" ")).toBe("");
    }
    const word = await recall("search", "--no-sync", "--", "--help");
    expect(word.stdout).not.toContain("Usage:");
  });
});
