import { Command } from "clipanion";
import { Option } from "../options.js";
import { isEnum } from "typanion";
import { commandModel, SHELLS } from "../docs/command-model.js";
import { COMPLETION_GENERATORS } from "../docs/completions.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";

export class CompletionCommand extends BaseCommand {
  static paths = [["completion"]];

  static usage = Command.Usage({
    description: "print a shell completion script",
    details: `
      Prints a completion script for bash, zsh or fish, generated from recall's own command definitions, so it offers exactly the commands, options and option values this version accepts. The same scripts ship in the package's \`completions/\` folder.
    `,
    examples: [
      ["Enable completion in the current bash", "source <($0 completion bash)"],
      ["Install for zsh", "$0 completion zsh > ~/.zfunc/_recall"],
      ["Install for fish", "$0 completion fish > ~/.config/fish/completions/recall.fish"],
    ],
  });

  shell = Option.String({ name: "shell", validator: isEnum(SHELLS) });

  async run(): Promise<ExitCode> {
    const shell = this.shell as (typeof SHELLS)[number];
    this.context.stdout.write(COMPLETION_GENERATORS[shell](commandModel(this.cli as never)));
    return Exit.Ok;
  }
}
