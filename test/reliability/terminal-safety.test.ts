/**
 * Escape sequences in session content never reach a terminal: message text, a session's name,
 * the header's folder, tool output (read --mode raw) and error messages are printed with their
 * control characters shown (`^[`), in search, list, list --format tsv, read, context, resume,
 * export (to a terminal) and stats.
 * Checked on a real pty (util-linux `script`), where such bytes would act: OSC 0 (window title),
 * OSC 52 (clipboard), OSC 8 (link), ESC[2J (clear). --json stays exact; resume --print's shell line
 * reads back to the same path.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellQuote } from "../../src/output/shell.js";
import { terminalText } from "../../src/output/terminal-text.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, RECALL_BIN, runRecall } from "../helpers/run-cli.js";
import { skipWithout } from "../helpers/tools.js";

const WITHOUT_SCRIPT = skipWithout("script");

const ESC = "\x1b";
const OSC_TITLE = `${ESC}]0;pwned-title\x07`;
const OSC_CLIPBOARD = `${ESC}]52;c;cm0gLXJmIH4=\x07`;
const OSC_LINK = `${ESC}]8;;https://evil.example\x07click${ESC}]8;;\x07`;
const CLEAR = `${ESC}[2J`;
/** Every bidirectional control: each reorders the text around it on a terminal that honours it. */
const BIDI = [
  "\u061c",
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];
const ALL = `${OSC_TITLE}${OSC_CLIPBOARD}${OSC_LINK}${CLEAR}${BIDI.join("")}`;

const ID = "0190eeee-0000-7000-8000-00000000e5c0";
const CWD = `/tmp/gone${ALL}\nsecond-line`;

/** Escapes a file name can hold (no `/`). */
const IN_A_NAME = `${OSC_TITLE}${CLEAR}`;
/** A session whose folder exists, both with escapes in their names: what resume --print prints. */
const RESUMABLE_ID = "0190eeee-0000-7000-8000-00000000e5c1";

function hostileSession(dir: AgentDir, id = ID, cwd = CWD, project = "--tmp-hostile--"): string {
  const folder = join(dir.sessionsDir, project);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `2026-10-02T10-00-00-000Z_${id}.jsonl`);
  const entries = [
    { type: "session", version: 3, id, timestamp: "2026-10-02T10:00:00.000Z", cwd },
    {
      type: "message",
      id: "e1",
      parentId: null,
      timestamp: "2026-10-02T10:00:01.000Z",
      message: {
        role: "user",
        content: [{ type: "text", text: `hostileword in the text ${ALL} end` }],
      },
    },
    {
      type: "message",
      id: "e2",
      parentId: "e1",
      timestamp: "2026-10-02T10:00:02.000Z",
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } }],
      },
    },
    {
      type: "message",
      id: "e3",
      parentId: "e2",
      timestamp: "2026-10-02T10:00:03.000Z",
      message: {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: `tool output ${ALL}` }],
        isError: false,
      },
    },
    {
      type: "message",
      id: "e4",
      parentId: "e3",
      timestamp: "2026-10-02T10:00:04.000Z",
      message: { role: "assistant", content: [{ type: "text", text: `hostileword again ${ALL}` }] },
    },
    {
      type: "session_info",
      id: "e5",
      parentId: "e4",
      timestamp: "2026-10-02T10:00:05.000Z",
      name: `evil name ${ALL}`,
    },
  ];
  writeFileSync(path, entries.map((e) => JSON.stringify(e)).join("\n") + "\n");
  return path;
}

/** What the terminal received when `recall args` ran on a pty (stdout and stderr both). */
function onPty(dir: AgentDir, args: string[]): string {
  const command = [process.execPath, RECALL_BIN, ...args].map(shellQuote).join(" ");
  return spawnSync("script", ["-qc", command, "/dev/null"], {
    env: { ...dir.env, TERM: "xterm-256color" },
    encoding: "utf8",
  }).stdout;
}

describe("terminalText", () => {
  it("shows C0 controls and DEL in caret notation, C1 and bidi controls as \\u{…}", () => {
    expect(terminalText(`a${ESC}[2Jb\x07\x7f\r`)).toBe("a^[[2Jb^G^?^M");
    expect(terminalText("x\u009by\u202ez")).toBe("x\\u{9b}y\\u{202e}z");
  });

  it("shows every bidirectional control, the Arabic letter mark included", () => {
    for (const char of BIDI)
      expect(terminalText(`a${char}b`)).toBe(`a\\u{${char.charCodeAt(0).toString(16)}}b`);
  });

  it("keeps one line unless asked for lines, where tabs, newlines and CRLF stay line breaks", () => {
    expect(terminalText("a\nb\tc")).toBe("a^Jb^Ic");
    expect(terminalText("a\r\nb\tc", { lines: true })).toBe("a\nb\tc");
  });

  it("leaves printable text, emoji joiners included, as it is", () => {
    expect(terminalText("Café 日本語 👨‍👩‍👧")).toBe("Café 日本語 👨‍👩‍👧");
  });
});

describe("shellQuote", () => {
  it("quotes a word with control characters as $'…', which a shell reads back exactly", () => {
    const word = `/tmp/a b'c${ALL}\n\u009b`;
    const quoted = shellQuote(word);
    expect(quoted).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    const echoed = execFileSync("bash", ["-c", `printf '%s' ${quoted}`], { encoding: "utf8" });
    expect(echoed).toBe(word);
  });
});

describe.skipIf(WITHOUT_SCRIPT !== "")(`on a real terminal (script)${WITHOUT_SCRIPT}`, () => {
  let dir: AgentDir;
  let resumable: string;
  beforeAll(async () => {
    dir = makeAgentDir();
    hostileSession(dir);
    const folder = join(dir.root, `project${IN_A_NAME}`);
    mkdirSync(folder);
    resumable = hostileSession(dir, RESUMABLE_ID, folder, `--project${IN_A_NAME}--`);
    await runRecall(["index"], { env: dir.env });
  });
  afterAll(() => dir.cleanup());

  const commands: [string, () => string[]][] = [
    ["search", () => ["search", "hostileword"]],
    ["list", () => ["list"]],
    ["list --format tsv", () => ["list", "--format", "tsv"]],
    ["search --format tsv", () => ["search", "--format", "tsv", "hostileword"]],
    ["read", () => ["read", ID]],
    ["read --mode raw", () => ["read", "--mode", "raw", ID]],
    ["read --highlight", () => ["read", "--highlight", "hostileword", ID]],
    ["context", () => ["context", ID, "hostileword"]],
    ["resume (its error: the folder is gone)", () => ["resume", ID]],
    ["resume --print", () => ["resume", "--print", resumable]],
    ["export", () => ["export", ID]],
    ["stats (the folder as the project)", () => ["stats"]],
  ];

  for (const [name, args] of commands) {
    it(`${name} --color never: no ESC byte reaches the terminal`, () => {
      const seen = onPty(dir, [...args(), "--color", "never"]);
      // The content is there, shown: `^[` in text, `\x1b` in a shell word.
      expect(seen).toMatch(/\^\[|\\x1b/);
      expect(seen).not.toContain(ESC);
      expect(seen).not.toContain("\x07");
      for (const char of BIDI)
        expect(seen, `U+${char.charCodeAt(0).toString(16)}`).not.toContain(char);
    });

    it(`${name} in color: only recall's own color codes reach the terminal`, () => {
      const seen = onPty(dir, args());
      // Recall's own styling is SGR (`ESC[…m`) only.
      expect(seen.replace(/\x1b\[[0-9;]*m/g, "")).not.toContain(ESC);
    });
  }

  it("list keeps one record per session, with a newline in a folder shown as ^J", () => {
    const seen = onPty(dir, ["list", "--format", "tsv", "--color", "never"]);
    const line = seen.split(/\r?\n/).find((l) => l.startsWith(ID))!;
    expect(line.split("\t")).toHaveLength(6);
    const human = onPty(dir, ["list", "--color", "never"]);
    expect(human).toContain("second-line");
    expect(human).not.toMatch(/^second-line/m);
  });

  it("resume --print's line runs in the session's folder, with its path, as a shell reads it", () => {
    const line = onPty(dir, ["resume", "--print", RESUMABLE_ID]).trim();
    const [cd, pi] = line.split(" && ");
    const words = execFileSync(
      "bash",
      [
        "-c",
        `set -- ${cd!.replace(/^cd /, "")} ${pi!.replace(/^pi --session /, "")}; printf '%s\\0' "$@"`,
      ],
      { encoding: "utf8" },
    );
    expect(words.split("\0").slice(0, 2)).toEqual([
      join(dir.root, `project${IN_A_NAME}`),
      resumable,
    ]);
  });

  it("an option's name that is no option is echoed with its control characters shown", async () => {
    // Not through onPty: its shell (sh) cannot take the word back from a $'…' quote.
    const result = await runRecall(["search", `--bogus${CLEAR}\u061c`, "x"], { env: dir.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'recall: invalid option name ("--bogus^[[2J\\u{61c}") (`recall search --help` shows the usage)\n',
    );
  });

  it("--json stays exact", async () => {
    const result = await runRecall(["list", "--json"], { env: dir.env });
    const session = jsonLines<{ id: string; cwd: string; name: string }>(result.stdout).find(
      (s) => s.id === ID,
    )!;
    expect(session.cwd).toBe(CWD);
    expect(session.name).toBe(`evil name ${ALL}`);
  });
});
