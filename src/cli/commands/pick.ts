import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "clipanion";
import { Option } from "../options.js";
import { RecallError } from "../../index.js";
import { formatRecord } from "../../output/format.js";
import { shellLine } from "../../output/shell.js";
import { terminalText } from "../../output/terminal-text.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";

const PICK_LIMIT = 50;
const TOGGLE_KEY = "ctrl-t";
const PATH_KEY = "ctrl-o";
/** The first fzf with `become`, which enter and ctrl-o use. */
const MIN_FZF = [0, 38] as const;

export class PickCommand extends BaseCommand {
  static paths = [["pick"]];

  static usage = Command.Usage({
    description: "pick a session interactively with fzf, and resume it",
    details: `
      Opens fzf over your sessions. Typing searches as you go (the last word also matches as a prefix); the preview shows the selected session's latest messages with the matches marked. Enter resumes the session in Pi (\`recall resume\`); ${TOGGLE_KEY} switches between this folder and all projects; ${PATH_KEY} prints the session's path instead and exits.

      Needs fzf (0.38 or later). For your own bindings, the same picker is one line of plain fzf:

      \`recall list --format tsv | fzf --disabled --delimiter '\\t' --with-nth 4,2,3,5 --bind 'change:reload(recall search --format tsv --prefix -- {q} || true)' --preview 'recall read --limit 20 --color always --highlight {q} {1}' --bind 'enter:become(recall resume {1})'\`
    `,
    examples: [
      ["Pick among all sessions", "$0 pick"],
      ["Start with a query", "$0 pick staging deploy"],
      ["Only print the chosen session's path", `pi --session "$($0 pick --print)"`],
    ],
  });

  query = Option.Rest({ name: "query" });
  here = Option.Boolean("--here", false, {
    description: "Start with only the sessions of the current folder",
  });
  print = Option.Boolean("--print", false, {
    description: "Print the chosen session's path instead of resuming it",
  });
  // The picker's own reload source and scope toggle: not for people.
  lines = Option.Boolean("--lines", false, { hidden: true });
  scopeFile = Option.String("--scope-file", { hidden: true });
  toggle = Option.Boolean("--toggle", false, { hidden: true });

  async run(): Promise<ExitCode> {
    if (this.toggle) return this.toggleScope();
    if (this.lines) return this.printLines();
    return this.openPicker();
  }

  private scopeIsHere(): boolean {
    if (!this.scopeFile) return this.here;
    try {
      return readFileSync(this.scopeFile, "utf8").trim() === "here";
    } catch {
      return false;
    }
  }

  private toggleScope(): ExitCode {
    if (!this.scopeFile) throw new RecallError("BAD_INPUT", "--toggle needs --scope-file");
    writeFileSync(this.scopeFile, this.scopeIsHere() ? "all\n" : "here\n");
    return Exit.Ok;
  }

  /**
   * The TSV lines fzf shows: first the scope, as fzf's header line (the fourth field, which fzf
   * shows), then a prefix search for the query, or the latest sessions. The picker synced when it
   * opened; each keystroke answers from the index as it is.
   */
  private async printLines(): Promise<ExitCode> {
    const cwd = this.scopeIsHere() ? this.context.cwd : undefined;
    const query = this.query.join(" ").trim();
    const now = Date.now();
    const { hits } = await this.recall().search({
      query,
      prefix: true,
      limit: PICK_LIMIT,
      cwd,
      now,
      sync: false,
    });
    const scope =
      cwd === undefined
        ? `all projects (${TOGGLE_KEY}: this folder only)`
        : `this folder, ${cwd} (${TOGGLE_KEY}: all projects)`;
    this.out(`\t\t\t${terminalText(`scope: ${scope}`)}\t\t`);
    for (const hit of hits) this.out(formatRecord(hit, "tsv", now));
    return Exit.Ok;
  }

  /** The terminal fzf will draw on and read keys from, or the reason there is none. */
  private async terminalProblem(): Promise<string | undefined> {
    const { isatty } = await import("node:tty");
    try {
      const fd = openSync("/dev/tty", "r+");
      const usable = isatty(fd);
      closeSync(fd);
      return usable ? undefined : "/dev/tty is not a terminal";
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ENXIO"
        ? "this process has no terminal"
        : `cannot open /dev/tty (${(error as Error).message})`;
    }
  }

  private async openPicker(): Promise<ExitCode> {
    const noTerminal = await this.terminalProblem();
    if (noTerminal)
      throw new RecallError(
        "BAD_INPUT",
        `pick is interactive and needs a terminal, but ${noTerminal}; \`recall search --format tsv\` gives the same lines to a script`,
      );
    await this.recall().refresh();
    this.warnNotices();
    if ((await this.recall().list({ limit: 1, sync: false })).length === 0) {
      this.warn("there are no sessions to pick from yet");
      return Exit.NoMatch;
    }
    // Loaded here, not at the top: child_process (and net under it) would slow every recall start.
    const { spawn, spawnSync } = await import("node:child_process");
    const fzf = spawnSync("fzf", ["--version"], { encoding: "utf8", env: this.context.env });
    const version = fzf.error || fzf.status !== 0 ? undefined : /^(\d+)\.(\d+)/.exec(fzf.stdout);
    if (
      !version ||
      Number(version[1]) * 1000 + Number(version[2]) < MIN_FZF[0] * 1000 + MIN_FZF[1]
    ) {
      const found = version ? `the fzf on PATH is ${version[0]}` : "none is on PATH";
      throw new RecallError(
        "NOT_FOUND",
        `pick needs fzf ${MIN_FZF.join(".")} or later, and ${found}: install it (apt install fzf, brew install fzf, or see https://github.com/junegunn/fzf)`,
      );
    }

    const dir = mkdtempSync(join(tmpdir(), "recall-pick-"));
    const scopeFile = join(dir, "scope");
    writeFileSync(scopeFile, this.here ? "here\n" : "all\n");
    // fzf runs these through the shell: call this same recall, with the same sessions directory.
    const sessionsDir = this.sessionsDir ? ["--sessions-dir", this.sessionsDir] : [];
    const recallArgs = (command: string, ...args: string[]) => [
      process.argv[1]!,
      command,
      ...sessionsDir,
      ...args,
    ];
    const recall = (command: string, ...args: string[]) =>
      shellLine([process.execPath, ...recallArgs(command, ...args)]);
    const lines = `${recall("pick", "--lines", "--scope-file", scopeFile, "--")} {q}`;
    const printPath = "become(printf '%s\\n' {6})";
    const args = [
      "--disabled",
      "--ansi",
      "--delimiter",
      "\t",
      "--with-nth",
      "4,2,3,5",
      // The first line of every list is the scope (printLines).
      "--header-lines",
      "1",
      "--query",
      this.query.join(" "),
      "--header",
      `enter: ${this.print ? "print path" : "resume in pi"} · ${TOGGLE_KEY}: this folder ↔ all projects · ${PATH_KEY}: print path`,
      "--prompt",
      "recall> ",
      "--bind",
      `change:reload(sleep 0.05; ${lines} || true)`,
      "--bind",
      `${TOGGLE_KEY}:execute-silent(${recall("pick", "--toggle", "--scope-file", scopeFile)})+reload(${lines} || true)`,
      "--bind",
      `${PATH_KEY}:${printPath}`,
      "--bind",
      `enter:${this.print ? printPath : `become(${recall("resume", "--")} {6})`}`,
      // No preview (rather than read's error about a missing session) while nothing matches.
      "--preview",
      `[ -z {6} ] || ${recall("read", "--limit", "20", "--color", "always")} --highlight={q} -- {6}`,
      "--preview-window",
      "right,50%,wrap",
    ];
    try {
      const initial = spawnSync(
        process.execPath,
        recallArgs("pick", "--lines", "--scope-file", scopeFile, "--", ...this.query),
        {
          encoding: "utf8",
          env: this.context.env,
          cwd: this.context.cwd,
        },
      );
      const code = await new Promise<number>((resolve, reject) => {
        const child = spawn("fzf", args, {
          stdio: ["pipe", "inherit", "inherit"],
          env: this.context.env,
          cwd: this.context.cwd,
        });
        child.on("error", reject);
        child.on("close", (status) => resolve(status ?? 2));
        child.stdin.end(initial.stdout);
      });
      // fzf: 1 = no match, 130 = cancelled (Esc, ctrl-c): nothing was picked.
      if (code === 130 || code === 1) return Exit.NoMatch;
      return code === 0 ? Exit.Ok : Exit.Error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
