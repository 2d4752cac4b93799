import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { Command } from "clipanion";
import { RecallError } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { Option } from "../options.js";

/** What dist/bundle/serve.cjs (src/serve/main.ts) exports. */
interface ServeBundle {
  startServer(
    options: {
      sessionsDir: string | undefined;
      env: NodeJS.ProcessEnv;
      port: number;
      host: string;
      remote: string | null;
      folder: string;
    },
    say: (line: string) => void,
  ): Promise<{ url: string; close(): Promise<void> }>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export class ServeCommand extends BaseCommand {
  static paths = [["serve"]];

  static usage = Command.Usage({
    description: "read and search sessions in a browser (a local web app)",
    details: `
      Starts a web app on 127.0.0.1 (a free port unless \`--port\` names one) and prints its address, which holds a secret for this run: open it (or pass \`--open\`) and the browser keeps the secret as a cookie. Requests without it, or naming the server by another host name, are refused, so another user of the machine or a web page cannot read your sessions. Stop it with Ctrl-C.

      Search as you type, as the picker does: the last word as a prefix, \`#tag\` and \`-#tag\`, the scope (every session, this folder, this project) and, with the meaning model, how a session must match. The address holds the search, so it can be bookmarked. A session's page shows the conversation with code highlighted, tool calls and thinking collapsed (one or all opened), branches left behind and compactions where they happened, the matched message marked, its tags (editable), the line that resumes it, related sessions, and its export as Markdown or one HTML file (redacted if you ask). The activity page draws messages, tokens and cost per day, per project and per model, and lists the busiest files.

      While it runs, \`serve\` keeps the index up to date as Pi writes (as \`recall watch\` does) and open pages update. With \`--remote NAME\` (or a remote of the config chosen on the page), the search runs over the team archive, each session with the machine and user it lives on; a kept file can be pulled to resume it here.

      Session text is shown as text: nothing in a session runs in the page, which loads nothing from anywhere but the server. \`--host\` listens on another address (with a warning: anyone who can reach it and has the address can read your sessions).

      Exit status: 0 when stopped, 2 on error (the port taken, say).
    `,
    examples: [
      ["Open the app in the browser", "$0 serve --open"],
      ["On a fixed port", "$0 serve --port 8765"],
      ["Search the team archive", "$0 serve --remote team"],
    ],
  });

  port = Option.String("--port", "0", {
    description: "The port to listen on (default: a free one)",
  });
  host = Option.String("--host", "127.0.0.1", {
    description: "The address to listen on (default 127.0.0.1, this machine only)",
  });
  remote = Option.String("--remote", {
    description: "Start in this remote's archive (a remote of recall's config.json)",
  });
  open = Option.Boolean("--open", false, { description: "Open the address in the browser" });

  async run(): Promise<ExitCode> {
    if (!/^\d{1,5}$/.test(this.port) || Number(this.port) > 65535)
      throw new RecallError("BAD_INPUT", `--port takes a port number (0-65535), not ${this.port}`, {
        field: "port",
        value: this.port,
      });
    // As `recall index`: a sessions folder a setting names wrongly stops it; none yet (Pi never
    // ran) is said, and the app waits for one.
    const problem = this.sessionsFolderProblem();
    if (problem) this.warn(problem.message);
    if (problem?.fatal) return Exit.Error;
    if (!LOOPBACK.has(this.host))
      this.warn(
        `listening on ${this.host}, not this machine only: anyone who can reach it with the printed address can read your sessions`,
      );
    // The server and the front end's files are a bundle of their own, loaded only here.
    const bundle = createRequire(import.meta.url)(
      new URL("./serve.cjs", import.meta.url).pathname,
    ) as ServeBundle;
    const say = (line: string) => this.warn(line);
    let running;
    try {
      running = await bundle.startServer(
        {
          sessionsDir: this.sessionsDir,
          env: this.context.env,
          port: Number(this.port),
          host: this.host,
          remote: this.remote ?? null,
          folder: this.context.cwd,
        },
        say,
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE")
        throw new RecallError(
          "BAD_INPUT",
          `port ${this.port} is taken: choose another with --port, or leave it out for a free one`,
        );
      if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
        throw new RecallError(
          "BAD_INPUT",
          `cannot listen on ${this.host}: not an address of this machine`,
        );
      throw error;
    }
    this.context.stdout.write(`${running.url}\n`);
    say("serving: open the address above; Ctrl-C stops");
    if (this.open) openBrowser(running.url, say);
    await new Promise<void>((stopped) => {
      const onSignal = () => stopped();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
    });
    await running.close();
    return Exit.Ok;
  }
}

/** The desktop's way to open an address; a failure is one line, the server goes on. */
function openBrowser(url: string, say: (line: string) => void): void {
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  const child = spawn(command!, args, { stdio: "ignore", detached: true });
  child.on("error", () =>
    say(`could not open a browser (${command} failed); open the address yourself`),
  );
  child.unref();
}
