import { Command } from "clipanion";
import { Option } from "../options.js";
import { isNumber } from "typanion";
import { DEFAULT_CONTEXT_CHARS, type ContextResult } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { messageLines } from "../message-printer.js";
import { contextMessageRecord, contextRecord, wireLine } from "../wire.js";

export class ContextCommand extends BaseCommand {
  static paths = [["context"]];

  static usage = Command.Usage({
    description: "the messages of a session that bear on a question",
    details: `
      Picks, without any model, the messages of one session most relevant to the question: each message of the conversation is scored on the question's words (BM25, as a search engine ranks), the best are taken with the message before and after each for context, and all of it is printed in conversation order within \`--max-chars\` characters of message text. A message too long for what is left of the budget is cut to the part around its match. The same session and question always give the same result.

      Exit status: 0 if some message matched, 1 if none did, 2 on error.
    `,
    examples: [
      [
        "What was decided about the helm chart",
        '$0 context 01a0f6e8 "helm chart version decision"',
      ],
      [
        "Feed a budgeted excerpt to another tool",
        '$0 context 01a0f6e8 "readiness probes" --max-chars 4000 --json',
      ],
    ],
  });

  session = Option.String({ name: "session" });
  question = Option.Rest({ name: "question", required: 1 });
  maxChars = Option.String("--max-chars", String(DEFAULT_CONTEXT_CHARS), {
    description: `Characters of message text to give at most (default ${DEFAULT_CONTEXT_CHARS})`,
    validator: isNumber(),
  });
  allBranches = Option.Boolean("--all-branches", false, {
    description: "Also consider branches left behind",
  });
  json = Option.Boolean("--json", false, {
    description: "Print one JSON object per message, then a summary (JSON Lines)",
  });

  async run(): Promise<ExitCode> {
    const recall = this.recall();
    const session = await recall.resolve(this.session);
    this.warnNotices();
    const question = this.question.join(" ");
    const result = await recall.context(session, question, {
      maxChars: Number(this.maxChars),
      allBranches: this.allBranches,
    });
    if (this.json) {
      for (const message of result.messages) this.out(wireLine(contextMessageRecord(message)));
      this.out(wireLine(contextRecord(result.summary)));
    } else {
      this.printText(result);
    }
    if (result.messages.length === 0) {
      if (!this.json)
        this.warn(
          `no message of session ${session.id} mentions ${result.summary.terms.join(", ")}`,
        );
      return Exit.NoMatch;
    }
    return Exit.Ok;
  }

  private printText({ messages }: ContextResult): void {
    let previous: number | undefined;
    for (const message of messages) {
      // A gap in the conversation between two picked messages.
      if (previous !== undefined && message.index > previous + 1)
        this.out(`${this.paint.dim("⋯")}\n`);
      previous = message.index;
      for (const line of messageLines(this.paint, message, message.clipped ? ["cut"] : []))
        this.out(line);
    }
  }
}
