import { Command } from "clipanion";
import { Option } from "../options.js";
import { isEnum, isNumber } from "typanion";
import {
  DEFAULT_PAGE_CHARS,
  RecallError,
  TRANSCRIPT_MODES,
  wordMarks,
  type ArchiveReadResult,
  type ReadResult,
  type TranscriptMode,
} from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { cliMessage } from "../error-words.js";
import { Exit, type ExitCode } from "../exit.js";
import { messageLines } from "../message-printer.js";
import { highlightWords } from "../../output/highlight.js";
import { readSessionArgs } from "../session-args.js";
import { archivePageRecord, messageRecord, pageRecord, wireLine } from "../wire.js";
import { terminalText } from "../../output/terminal-text.js";

export class ReadCommand extends BaseCommand {
  static paths = [["read"]];

  static usage = Command.Usage({
    description: "print a session's conversation",
    details: `
      Names a session by id, unique id prefix or file path; \`-\` reads ids or paths from stdin, one per line. A prefix that matches several sessions is an error that lists them.

      The default \`conversation\` mode shows user and assistant text, custom messages, and compaction and branch summaries where they happened, along the active branch: the one Pi continues, from the last entry back to the root. \`--mode raw\` adds thinking, tool calls, tool output and errors; \`--all-branches\` also shows the branches left behind, each right after the message it left from.

      A page holds at most \`--max-chars\` characters of message text; a longer session ends the page with a cursor, and \`--cursor\` continues from it. A cursor is refused once the session file has changed.

      \`--remote NAME\` reads a session from that remote's archive (see \`recall push\`), named by its id or a unique prefix of it: the messages as they were pushed (redacted), in session order, with \`--mode raw\` every kind of text the remote was sent; a page holds whole messages. It says which user pushed it from which machine.

      Exit status: 0 if the sessions were read, 2 on error (an unknown or ambiguous session among them).
    `,
    examples: [
      ["Read a session by id prefix", "$0 read 01a0f6e8"],
      [
        "Only the last 10 messages, with tool calls and output",
        "$0 read 01a0f6e8 -n 10 --mode raw",
      ],
      ["Read the best search hits", "$0 search staging deploy --json | jq -r .id | $0 read -"],
      ["Read a session from the team's archive", "$0 read --remote team 01a0f6e8"],
      [
        "Continue a long session where the last page stopped",
        "$0 read 01a0f6e8 --cursor <the cursor that page ended with>",
      ],
    ],
  });

  sessions = Option.Rest({ name: "session", required: 1 });
  mode = Option.String("--mode", {
    description:
      "What to show: conversation (default), or raw, which adds thinking, tool calls and tool output",
    validator: isEnum(TRANSCRIPT_MODES),
  });
  allBranches = Option.Boolean("--all-branches", {
    description: "Also show branches left behind, not only the active one",
  });
  limit = Option.String("-n,--limit", {
    description: "Start with the latest N messages (with --cursor, paging goes on from the cursor)",
    validator: isNumber(),
  });
  maxChars = Option.String("--max-chars", String(DEFAULT_PAGE_CHARS), {
    description: `Characters of message text per page (default ${DEFAULT_PAGE_CHARS}); a longer session ends with a cursor`,
    validator: isNumber(),
  });
  cursor = Option.String("--cursor", {
    description: "Continue from the cursor a previous page ended with",
  });
  json = Option.Boolean("--json", false, {
    description: "Print one JSON object per message, then one for the page (JSON Lines)",
  });
  highlight = Option.String("--highlight", {
    description: "Mark the words that start with these words (as the picker's preview does)",
  });
  remote = Option.String("--remote", {
    description: "Read the session from the archive of this remote (see recall push)",
  });

  async run(): Promise<ExitCode> {
    const limit = this.limit === undefined ? undefined : Number(this.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new RecallError(
        "BAD_INPUT",
        `--limit must be a whole number of at least 1, not ${this.limit}`,
      );
    }
    if (this.remote !== undefined) return this.readRemote(this.remote, limit);
    const refs = await readSessionArgs(this.sessions, this.context.stdin);
    if (this.cursor !== undefined && refs.length > 1) {
      throw new RecallError(
        "BAD_INPUT",
        "--cursor continues one session: give only the session it came from",
      );
    }
    const recall = this.recall();
    const resolved = await recall.resolveAll(refs);
    this.warnNotices();

    let failed = false;
    for (const entry of resolved) {
      try {
        if ("error" in entry) throw entry.error;
        const result = await recall.read(entry.session, {
          mode: this.mode as TranscriptMode | undefined,
          allBranches: this.allBranches,
          limit,
          maxChars: Number(this.maxChars),
          cursor: this.cursor,
        });
        if (this.json) this.printJson(result);
        else this.printText(result);
      } catch (error) {
        // With several sessions, one that cannot be read does not stop the others.
        if (!(error instanceof RecallError) || refs.length === 1) throw error;
        this.warn(`${entry.ref}: ${cliMessage(error)}`);
        failed = true;
      }
    }
    return failed ? Exit.Error : Exit.Ok;
  }

  /** One archived session: the same page, printed the same way, saying where the session lives. */
  private async readRemote(remote: string, limit: number | undefined): Promise<ExitCode> {
    if (this.sessions.length !== 1 || this.sessions[0] === "-")
      throw new RecallError(
        "BAD_INPUT",
        "--remote reads one session: give its id or a unique prefix of it",
      );
    if (this.allBranches)
      throw new RecallError(
        "BAD_INPUT",
        "--all-branches reads a session file: an archive keeps the messages as they were pushed",
      );
    const archive = this.recall().archive;
    const result = await archive.read(remote, this.sessions[0]!, {
      mode: this.mode as TranscriptMode | undefined,
      limit,
      maxChars: Number(this.maxChars),
      cursor: this.cursor,
    });
    if (this.json) {
      for (const message of result.messages) this.out(wireLine(messageRecord(message)));
      this.out(wireLine(archivePageRecord(result)));
    } else {
      this.printText(
        result,
        `in remote ${result.origin.remote}, pushed by ${result.origin.user} from ${result.origin.machine}`,
        `recall read --remote ${remote}`,
      );
    }
    return Exit.Ok;
  }

  private printJson({ messages, page }: ReadResult): void {
    for (const message of messages) this.out(wireLine(messageRecord(message)));
    this.out(wireLine(pageRecord(page)));
  }

  /** A page for a person; `where` the session lives replaces its path (an archived one). */
  private printText(
    { messages, page }: ReadResult | ArchiveReadResult,
    where = page.path,
    again = "recall read",
  ): void {
    const paint = this.paint;
    if (this.cursor === undefined) {
      this.out(paint.bold(terminalText(page.name ?? `session ${page.id}`)));
      this.out(
        `  ${[paint.cyan(terminalText(page.cwd || "(unknown folder)")), paint.dim(terminalText(page.id))].join(paint.dim(" · "))}`,
      );
      this.out(`  ${paint.dim(terminalText(where))}`);
      this.out("");
    }
    if (page.total === 0)
      this.warn(
        `session ${page.id} has no messages to show${page.mode === "raw" ? "" : " (--mode raw shows tool calls and output too)"}`,
      );
    // Marked after the text is made safe for the terminal (a mark is an escape sequence itself).
    const safe = messages.map((m) => terminalText(m.text, { lines: true }).trimEnd());
    const marked = this.highlight
      ? highlightWords(safe, wordMarks(safe, this.highlight), (w) => paint.bold.red(w))
      : safe;
    for (const [i, message] of messages.entries()) {
      const notes: string[] = [];
      if (message.textOffset !== undefined && message.textLength !== undefined) {
        if (message.textOffset > 0) notes.push("continued");
        if (message.textOffset + message.text.length < message.textLength)
          notes.push("continues on the next page");
      }
      for (const line of messageLines(paint, message, notes, () => marked[i]!)) this.out(line);
    }
    // On stderr: stdout holds the session's text only, whole pages of it when piped.
    if (page.nextCursor) this.warn(`more follows: ${again} ${page.id} --cursor ${page.nextCursor}`);
  }
}
