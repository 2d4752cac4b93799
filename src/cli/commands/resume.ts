import { closeSync, openSync } from "node:fs";
import { constants } from "node:os";
import { Command } from "clipanion";
import { Option } from "../options.js";
import { RecallError, type ResumePlan } from "../../index.js";
import { resumeShellLine } from "../../output/shell.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { readSessionArgs } from "../session-args.js";
import { resumeRecord, wireLine } from "../wire.js";

export class ResumeCommand extends BaseCommand {
  static paths = [["resume"]];

  static usage = Command.Usage({
    description: "continue a session in Pi, in the session's own folder",
    details: `
      Runs \`pi --session <absolute path>\` in the folder the session was started in, and exits with pi's exit status. Node cannot replace its own process the way \`exec\` does, so recall starts pi in the foreground with the terminal handed over, leaves Ctrl-C to it, and waits for it to end.

      \`--print\` prints the equivalent shell line (\`cd <folder> && pi --session <path>\`) instead, and \`--json\` the command and folder. If the session's folder no longer exists, this is an error: \`pi --fork <path>\` run from another folder continues the session there.

      \`-\` reads the session from stdin; pi then gets the terminal (/dev/tty) as its input.
    `,
    examples: [
      ["Resume by id prefix", "$0 resume 01a0f6e8"],
      [
        "Resume the best search hit",
        "$0 search staging deploy --json | head -1 | jq -r .id | $0 resume -",
      ],
      ["Just print the command", "$0 resume 01a0f6e8 --print"],
    ],
  });

  session = Option.String({ name: "session" });
  print = Option.Boolean("--print", false, {
    description: "Print the shell command instead of running it",
  });
  json = Option.Boolean("--json", false, {
    description: 'Print {"argv": [...], "cwd": ...} instead of running it',
  });

  /** pi's own exit status, passed on as if recall had been replaced by pi. */
  private piStatus: number | undefined;

  override async execute(): Promise<number> {
    const status = await super.execute();
    return this.piStatus ?? status;
  }

  async run(): Promise<ExitCode> {
    if (this.print && this.json)
      throw new RecallError("BAD_INPUT", "--print and --json cannot be combined");
    const refs = await readSessionArgs([this.session], this.context.stdin);
    if (refs.length !== 1) {
      throw new RecallError(
        "BAD_INPUT",
        `resume takes one session, but stdin held ${refs.length}; pick one (for example with \`head -1\`)`,
      );
    }
    const recall = this.recall();
    const session = await recall.resolve(refs[0]!);
    this.warnNotices();
    const plan = await recall.resumePlan(session);
    if (this.json) {
      this.out(wireLine(resumeRecord(plan)));
      return Exit.Ok;
    }
    if (this.print) {
      this.out(resumeShellLine(plan));
      return Exit.Ok;
    }
    // Stdin was used up by the session id: pi reads from the terminal instead, as `xargs -o` does.
    const terminal = this.session === "-" ? openTerminal() : undefined;
    try {
      this.piStatus = await runInForeground(plan, terminal ?? "inherit", this.context.env);
    } finally {
      if (terminal !== undefined) closeSync(terminal);
    }
    return Exit.Ok;
  }
}

function openTerminal(): number {
  try {
    return openSync("/dev/tty", "r");
  } catch {
    throw new RecallError(
      "BAD_INPUT",
      "the session came on stdin and there is no terminal for pi to read from; name the session as an argument, or use --print",
    );
  }
}

/**
 * Runs pi with recall's terminal and resolves with its exit status (128 + n if signal n ended it).
 */
async function runInForeground(
  plan: ResumePlan,
  stdin: "inherit" | number,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  // Loaded here, not at the top: child_process (and net under it) would slow every recall start.
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    // The terminal sends Ctrl-C and Ctrl-\ to every process in the foreground: they are pi's.
    const ignore = () => {};
    const signals = ["SIGINT", "SIGQUIT"] as const;
    for (const signal of signals) process.on(signal, ignore);
    const restore = () => {
      for (const signal of signals) process.off(signal, ignore);
    };
    const child = spawn(plan.argv[0]!, plan.argv.slice(1), {
      cwd: plan.cwd,
      env,
      stdio: [stdin, "inherit", "inherit"],
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      restore();
      if (error.code === "ENOENT")
        reject(
          new RecallError(
            "NOT_FOUND",
            `cannot start pi: it is not on PATH; install Pi, or run: ${resumeShellLine(plan)}`,
          ),
        );
      else reject(error);
    });
    child.on("exit", (code, signal) => {
      restore();
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}
