import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, runCli } from "../src/cli/main.js";
import type { RecallContext } from "../src/cli/context.js";
import { commandModel } from "../src/cli/docs/command-model.js";
import { closest, parseErrorMessage } from "../src/cli/parse-errors.js";
import { escapeTsvField } from "../src/output/format.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";
import { skipWithout } from "./helpers/tools.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const commands = commandModel(buildCli());
const completionFiles = {
  bash: "completions/recall.bash",
  zsh: "completions/_recall",
  fish: "completions/recall.fish",
} as const;

let agent: AgentDir;
beforeAll(() => {
  agent = makeAgentDir();
});
afterAll(() => agent.cleanup());
const recall = (...args: string[]) => runRecall(args, { env: agent.env });

describe("--format and -0", () => {
  it("escapes tabs, newlines and backslashes inside TSV fields", () => {
    expect(escapeTsvField("a\tb\nc\\d\re")).toBe("a\\tb\\nc\\\\d\\re");
  });

  it("prints TSV with six fields per session", async () => {
    const result = await recall("search", "--format", "tsv", "staging", "deploy");
    const rows = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toHaveLength(6);
    expect(rows[0]![0]).toBe("01a0f6b1-2680-79e3-a1fa-30b6f0582ef5");
    expect(rows[0]![1]).toBe("shop-api");
    expect(rows[0]![5]).toMatch(/\.jsonl$/);
  });

  it("ends records with NUL with -0, and prints paths with --format path", async () => {
    const result = await recall("list", "--format", "path", "-0");
    const records = result.stdout.split("\0");
    expect(records.at(-1)).toBe("");
    expect(
      records.slice(0, -1).every((r) => r.startsWith(agent.sessionsDir) && !r.includes("\n")),
    ).toBe(true);
    expect(jsonLines((await recall("list", "--format", "json")).stdout).length).toBe(
      records.length - 1,
    );
  });

  it("refuses contradictory or useless combinations", async () => {
    expect((await recall("list", "--json", "--format", "tsv")).stderr).toMatch(/contradict/);
    expect((await recall("list", "-0")).stderr).toMatch(/-0\/--null goes with --format/);
  });
});

describe("completions", () => {
  it("the files in completions/, man/ and docs/cli.md are what the command definitions generate", () => {
    const check = spawnSync(process.execPath, ["scripts/gen-docs.mjs", "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it.each(Object.entries(completionFiles))(
    "%s: names every command, option and option value",
    (shell, file) => {
      const script = readFileSync(`${ROOT}/${file}`, "utf8");
      expect(
        execFileSync(process.execPath, [`${ROOT}/bin/recall.cjs`, "completion", shell], {
          encoding: "utf8",
        }),
      ).toBe(script);
      for (const command of commands) {
        expect(script, command.name).toContain(command.name);
        for (const option of command.options) {
          for (const name of option.names) {
            const spelled =
              shell === "fish"
                ? name.startsWith("--")
                  ? `-l ${name.slice(2)}`
                  : `-s ${name.slice(1)}`
                : name;
            expect(script, `${command.name} ${name}`).toContain(spelled);
          }
          for (const value of option.values ?? []) expect(script).toContain(value);
        }
      }
      expect(script).toContain("auto always never");
      expect(script).toContain("json tsv path");
    },
  );

  for (const [shell, flags] of [
    ["bash", ["-n"]],
    ["zsh", ["-n"]],
    ["fish", ["--no-execute"]],
  ] as const) {
    const skip = skipWithout(shell);
    it.skipIf(skip !== "")(`${shell} accepts the script's syntax${skip}`, () => {
      const result = spawnSync(shell, [...flags, `${ROOT}/${completionFiles[shell]}`], {
        encoding: "utf8",
      });
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
    });
  }

  const complete = (line: string) => {
    const words = line.split(" ");
    const script = `source ${ROOT}/completions/recall.bash
COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}
_recall; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync("bash", ["-c", script], { encoding: "utf8" }).trim().split("\n");
  };

  it("bash completes `recall sea<TAB>` to search, options and their values", () => {
    expect(complete("recall se")).toEqual(["search", "serve"]);
    expect(complete("recall sea")).toEqual(["search"]);
    expect(complete("recall search --li")).toEqual(["--limit"]);
    expect(complete("recall search --color a")).toEqual(["auto", "always"]);
    expect(complete("recall list --format t")).toEqual(["tsv"]);
    expect(complete("recall completion z")).toEqual(["zsh"]);
  });
});

describe("man pages", () => {
  const manifest = JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as { man: string[] };
  const withoutGroff = skipWithout("groff");
  const withoutMan = skipWithout("man");

  it("are listed in package.json, one per command, each with the usual sections", () => {
    expect(manifest.man).toContain("./man/recall.1");
    for (const command of commands)
      expect(manifest.man).toContain(`./man/recall-${command.name}.1`);
    for (const page of manifest.man) {
      const text = readFileSync(`${ROOT}/${page}`, "utf8");
      for (const section of ["EXIT STATUS", "ENVIRONMENT", "FILES", "JSON OUTPUT", "EXAMPLES"])
        expect(text, `${page} ${section}`).toContain(`.SH ${section}`);
    }
  });

  it.skipIf(withoutGroff !== "")(`render without warnings${withoutGroff}`, () => {
    for (const page of manifest.man) {
      const result = spawnSync("groff", ["-man", "-Tutf8", "-ww", "-z", `${ROOT}/${page}`], {
        encoding: "utf8",
      });
      expect(result.stderr, page).toBe("");
    }
  });

  it.skipIf(withoutMan !== "")(`open in man${withoutMan}`, () => {
    const rendered = execFileSync("man", ["-l", `${ROOT}/man/recall.1`], {
      encoding: "utf8",
      env: { ...process.env, MANPAGER: "cat", MANWIDTH: "80" },
    });
    expect(rendered).toMatch(/recall search/);
  });
});

describe("help and mistakes", () => {
  it("every command has a description and real examples", async () => {
    for (const command of commands) {
      expect(command.description, command.name).not.toBe("");
      expect(command.examples.length, command.name).toBeGreaterThan(0);
    }
    const help = await recall("search", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Examples/);
  });

  it("suggests the closest command or option", async () => {
    expect(closest("serch", ["search", "list", "read"])).toBe("search");
    expect(closest("xyzzy", ["search", "list"])).toBeUndefined();
    const unknownCommand = await recall("serch", "x");
    expect(unknownCommand).toMatchObject({ code: 2, stdout: "" });
    expect(unknownCommand.stderr).toBe(
      'recall: unknown command "serch"; did you mean "search"? (`recall --help` lists the commands)\n',
    );
    const unknownOption = await recall("search", "--limt", "3", "x");
    expect(unknownOption.stderr).toMatch(
      /unknown option "--limt" for recall search; did you mean "--limit"\?/,
    );
    expect(
      parseErrorMessage(
        new Error("Not enough positional arguments.\n\n$ recall read"),
        ["read"],
        commands,
      ),
    ).toBe(
      "recall read needs more arguments: recall read [options] <session…> (`recall read --help` shows the usage)",
    );
  });
});

describe("recall index progress", () => {
  class Capture extends Writable {
    text = "";
    override _write(chunk: Buffer, _encoding: string, done: () => void) {
      this.text += chunk.toString();
      done();
    }
  }
  const context = (stderrIsTTY: boolean) => {
    const stdout = new Capture();
    const stderr = new Capture();
    const ctx: RecallContext = {
      stdin: process.stdin,
      stdout,
      stderr,
      env: agent.env,
      cwd: agent.root,
      stdoutIsTTY: false,
      stderrIsTTY,
      colorDepth: 1,
    };
    return { ctx, stdout, stderr };
  };

  it("draws a bar on a terminal's stderr, nothing when piped or with --quiet", async () => {
    const tty = context(true);
    expect(await runCli(["index", "--rebuild"], tty.ctx)).toBe(0);
    expect(tty.stderr.text).toMatch(
      /\r\[#+-*\] \d+\/11 files, [\d.]+\/[\d.]+ MB, [\d.]+ MB\/s, ETA \d+ s/,
    );
    const piped = context(false);
    await runCli(["index", "--rebuild"], piped.ctx);
    expect(piped.stderr.text).not.toMatch(/\r\[/);
    const quiet = context(true);
    await runCli(["index", "--rebuild", "--quiet"], quiet.ctx);
    expect(quiet.stderr.text).toBe("");
    expect(quiet.stdout.text).toBe("");
  });
});
