import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Command } from "clipanion";
import { isEnum } from "typanion";
import { EXPORT_FORMATS, RecallError, type ExportFormat } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { Option } from "../options.js";
import { readSessionArgs } from "../session-args.js";
import { terminalText } from "../../output/terminal-text.js";

export class ExportCommand extends BaseCommand {
  static paths = [["export"]];

  static usage = Command.Usage({
    description: "write a session as Markdown or as one self-contained HTML file",
    details: `
      Names a session by id, unique id prefix or file path (\`-\` reads it from stdin), and writes the whole of it: a header with its name, folder, project, dates, models, tags and the \`pi --session\` line that resumes it, then every message along the active branch with thinking, tool calls and their output, shell commands, compactions and branch summaries where they happened. \`--all-branches\` adds the branches left behind, each marked, right after the message it left from.

      \`--format md\` (the default) writes Markdown: messages as they were written, tool calls and output in fenced blocks. \`--format html\` writes one HTML file that needs nothing else: messages rendered from Markdown with highlighted code, tool calls with their output, thinking and shell commands collapsed, no script, and a Content-Security-Policy that lets the page fetch nothing. Session text is shown as text there: a message holding HTML or a script shows it, never runs it.

      \`--redact\` replaces secrets (keys, tokens, passwords) with \`[REDACTED:<kind>]\` by the same rules as \`recall push\`, in every text a reader sees (the folder, path and id stay), so the export can be shared; the header says how many went.

      The export goes to stdout (on a terminal, with control characters of the session shown rather than acted on), or with \`-o FILE\` to that file, written whole or not at all (a temporary file beside it, renamed into place).

      An export holds the whole session in memory: a session file that is not a regular file (a FIFO, a device) or is larger than 64 MiB is refused before any of it is read; read such a session in pages with \`recall read\`.

      Exit status: 0 if the session was exported, 2 on error.
    `,
    examples: [
      ["A session as Markdown", "$0 export 01a0f6e8 > session.md"],
      ["As one HTML file to open in a browser", "$0 export 01a0f6e8 --format html -o session.html"],
      ["Redacted, to share", "$0 export 01a0f6e8 --format html --redact -o session.html"],
      [
        "The best search hit",
        "$0 search staging deploy --json | head -1 | jq -r .id | $0 export -",
      ],
    ],
  });

  session = Option.String({ name: "session" });
  format = Option.String("--format", "md", {
    description: "md (Markdown, the default) or html (one self-contained file)",
    validator: isEnum(EXPORT_FORMATS),
  });
  output = Option.String("-o,--output", {
    description: "Write to this file (replaced whole) instead of stdout",
  });
  redact = Option.Boolean("--redact", false, {
    description: "Replace secrets with [REDACTED:<kind>], as recall push does",
  });
  allBranches = Option.Boolean("--all-branches", false, {
    description: "Also export the branches left behind, not only the active one",
  });

  async run(): Promise<ExitCode> {
    const refs = await readSessionArgs([this.session], this.context.stdin);
    if (refs.length !== 1)
      throw new RecallError(
        "BAD_INPUT",
        `export takes one session, but stdin held ${refs.length}; pick one (for example with \`head -1\`)`,
      );
    const recall = this.recall();
    const session = await recall.resolve(refs[0]!);
    this.warnNotices();
    const text = await recall.exports.render(session, {
      format: this.format as ExportFormat,
      redact: this.redact,
      allBranches: this.allBranches,
    });
    // On a terminal, what the session holds is shown, never acted on (an escape sequence in a
    // message); into a file or a pipe, the export is exact.
    if (this.output === undefined || this.output === "-")
      this.context.stdout.write(
        this.context.stdoutIsTTY ? terminalText(text, { lines: true }) : text,
      );
    else writeWhole(this.output, text);
    return Exit.Ok;
  }
}

/** `text` into `path` through a temporary file beside it, renamed into place: never half a file. */
function writeWhole(path: string, text: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    // Not there yet: written below.
  }
  if (isDirectory)
    throw new RecallError("BAD_INPUT", `${path} is a directory: give -o a file name`);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temporary, "wx");
    try {
      const bytes = Buffer.from(text, "utf8");
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new RecallError(
      "IO",
      `cannot write ${path}: ${WRITE_ERRORS[code] ?? (code || String(error))}`,
    );
  }
}

const WRITE_ERRORS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOENT: "its folder does not exist",
  ENOTDIR: "its folder does not exist",
  ENOSPC: "no space left on the device",
  EDQUOT: "over the disk quota",
  EROFS: "read-only file system",
};
