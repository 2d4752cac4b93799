import { Command } from "clipanion";
import { Option } from "../options.js";
import { isNumber } from "typanion";
import { DEFAULT_CONTEXT_CHARS } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { askRecord, wireLine } from "../wire.js";
import { terminalText } from "../../output/terminal-text.js";

export class AskCommand extends BaseCommand {
  static paths = [["ask"]];

  static usage = Command.Usage({
    description: "ask one of your Pi models a question about a session",
    details: `
      Picks the messages of the session that bear on the question, exactly as \`recall context\` does (no model involved in choosing), and sends them with the question to a language model, framed as untrusted historical data. A question none of whose words the session holds (\`summarize what happened here\`) gets the start and end of the session instead, within the same \`--max-chars\`, and says so. Prints the answer, then the model that answered and the messages the answer cites.

      The model is one you configured in Pi, asked through your \`pi\` (on PATH, or \`RECALL_PI\`): \`--model provider/id\`, else \`ask.model\` in \`~/.pi/agent/recall/config.json\`, else Pi's default model. The provider may charge for the request. Secrets in the messages sent are redacted first, as \`recall push\` redacts them (\`--no-redact\` sends them as they are).

      Exit status: 0 if the model answered, 1 if the session has no messages (nothing is sent), 2 on error.
    `,
    examples: [
      ["What was decided", "$0 ask 01a0f6e8 which helm chart version did we settle on"],
      [
        "As JSON, with another model",
        "$0 ask 01a0f6e8 why did the readiness probe fail --model openai/gpt-5-mini --json",
      ],
    ],
  });

  session = Option.String({ name: "session" });
  question = Option.Rest({ name: "question", required: 1 });
  model = Option.String("--model", {
    description:
      "The model to ask, as provider/id (default: ask.model in the config, else Pi's default)",
  });
  maxChars = Option.String("--max-chars", String(DEFAULT_CONTEXT_CHARS), {
    description: `Characters of session text to send at most (default ${DEFAULT_CONTEXT_CHARS})`,
    validator: isNumber(),
  });
  json = Option.Boolean("--json", false, {
    description: 'Print {"answer", "model", "messages"} as one JSON object',
  });
  redact = Option.Boolean("--redact", true, {
    description:
      "Redact secrets in what is sent to the model, as push does (--no-redact sends the text as it is)",
  });

  async run(): Promise<ExitCode> {
    const recall = this.recall();
    const session = await recall.resolve(this.session);
    this.warnNotices();
    const question = this.question.join(" ");
    const result = await recall.models.ask(session, question, {
      maxChars: Number(this.maxChars),
      redact: this.redact,
      ...(this.model ? { model: this.model } : {}),
    });
    if (result.sent === 0) {
      if (this.json) this.out(wireLine(askRecord(result)));
      else
        this.warn(
          `session ${session.id} has no messages to ask about; nothing was sent to the model`,
        );
      return Exit.NoMatch;
    }
    if (result.sampled) {
      const words =
        result.terms.length > 0 ? `mentions ${result.terms.join(", ")}` : "matches the question";
      this.warn(
        `no message of session ${session.id} ${words}: sent its start and end instead (${result.sent} messages)`,
      );
    }
    if (this.json) {
      this.out(wireLine(askRecord(result)));
      return Exit.Ok;
    }
    // The answer repeats session text: made safe for the terminal like the text itself.
    this.out(terminalText(result.answer, { lines: true }));
    this.out("");
    const cited =
      result.messages.length > 0
        ? `cites message${result.messages.length === 1 ? "" : "s"} ${result.messages.map((m) => m.index).join(", ")}`
        : "cites no message";
    this.out(
      this.paint.dim(
        `${terminalText(result.model ?? "")} · ${cited} of the ${result.sent} sent from session ${session.id}`,
      ),
    );
    return Exit.Ok;
  }
}
