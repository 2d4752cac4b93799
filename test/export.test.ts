/**
 * `recall export` on real session files through the built CLI: Markdown and HTML of a fixture
 * session (its header, tool calls with their output, thinking, branches), a hostile session whose
 * every text tries to become markup, a script or a request (the HTML is scanned tag by tag, and,
 * where Debian's chromium is installed, parsed by it under its Content-Security-Policy),
 * `--redact`, `-o` written whole, and the errors; what is no session file to read whole (a FIFO,
 * /dev/zero behind a session's path, a folder, a file over the size an export takes) is refused
 * at once with one line.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { RECALL_BIN, runRecall } from "./helpers/run-cli.js";
import { SHAPES } from "./helpers/secret-shapes.js";

let agent: AgentDir;
const recall = (args: string[], input?: string) => runRecall(args, { env: agent.env, input });

/** The fixture with a tool call, its output and thinking (test/fixtures/README.md). */
const DEPLOY = "01a0f6b1";
const HOSTILE_ID = "0e000000-0000-7000-8000-0000000000e1";
const BRANCHED_ID = "0e000000-0000-7000-8000-0000000000e2";
const SECRET = SHAPES.find((s) => s.name === "GitHub token")!;

const SCRIPT = "<script>document.title='pwned'</script>";
const HOSTILE_TEXTS = [
  SCRIPT,
  `<img src="https://evil.example/i.png" onerror="alert(1)">`,
  `"><svg onload=alert(1)>`,
  "[click me](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=) and <javascript:alert(2)>",
  "![tracker](https://evil.example/pixel.png)",
  "</style><style>body{display:none}</style>",
  `<meta http-equiv="refresh" content="0;url=https://evil.example/">`,
  "<iframe src=https://evil.example/></iframe><base href=https://evil.example/>",
  "'; script-src * 'unsafe-inline'; style-src *",
  "[fine](https://example.com/docs?a=1&b=<2>)",
];

function line(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * A v3 session whose every text is hostile: the name, user text, thinking, a tool call, its output,
 * a shell command, a compaction, an entry id.
 */
function hostileSession(): string {
  const t = (s: number) =>
    `2026-11-0${1 + Math.floor(s / 60)}T10:${String(s % 60).padStart(2, "0")}:00.000Z`;
  const texts = HOSTILE_TEXTS.join("\n\n");
  const fence =
    "```js\n</script><script>alert('fence')</script>\n```\n\n```\"><script>alert('info')</script>\nplain\n```";
  const table = "| left | right |\n|:-----|------:|\n| <b>a</b> | 1 |";
  return [
    line({
      type: "session",
      version: 3,
      id: HOSTILE_ID,
      timestamp: t(0),
      cwd: "/home/dev/<b>shop</b>",
    }),
    line({
      type: "session_info",
      id: "e1",
      parentId: null,
      timestamp: t(1),
      name: `</title>${SCRIPT}`,
    }),
    line({
      type: "message",
      id: `x"><script>alert('id')</script>`,
      parentId: "e1",
      timestamp: t(2),
      message: { role: "user", content: `${texts}\n\n${SECRET.text}`, timestamp: t(2) },
    }),
    line({
      type: "message",
      id: "e3",
      parentId: `x"><script>alert('id')</script>`,
      timestamp: t(3),
      message: {
        role: "assistant",
        provider: "<i>prov</i>",
        model: "m<script>",
        usage: {
          input: 10,
          output: 20,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 30,
          cost: { total: 0.5 },
        },
        content: [
          { type: "thinking", thinking: `thinking ${SCRIPT}` },
          { type: "text", text: `${fence}\n\n${table}` },
          {
            type: "toolCall",
            id: "call-1",
            name: `<b>bash</b>`,
            arguments: { command: `echo '</code>${SCRIPT}'` },
          },
        ],
        stopReason: "toolUse",
        timestamp: t(3),
      },
    }),
    line({
      type: "message",
      id: "e4",
      parentId: "e3",
      timestamp: t(4),
      message: {
        role: "toolResult",
        toolCallId: "call-1",
        toolName: "<b>bash</b>",
        isError: true,
        content: [{ type: "text", text: `</pre>${SCRIPT}` }],
        timestamp: t(4),
      },
    }),
    line({
      type: "message",
      id: "e5",
      parentId: "e4",
      timestamp: t(5),
      message: {
        role: "bashExecution",
        command: `cat '${SCRIPT}'`,
        output: `</details>${SCRIPT}`,
        exitCode: 1,
        cancelled: false,
        truncated: false,
        timestamp: t(5),
      },
    }),
    line({
      type: "compaction",
      id: "e6",
      parentId: "e5",
      timestamp: t(6),
      summary: `## Goal\n${SCRIPT}`,
      firstKeptEntryId: "e5",
      tokensBefore: 1234,
    }),
    line({
      type: "message",
      id: "e7",
      parentId: "e6",
      timestamp: t(7),
      message: {
        role: "assistant",
        provider: "p",
        model: "m",
        content: [{ type: "text", text: "done" }],
        errorMessage: `<script>err</script>`,
        stopReason: "error",
        timestamp: t(7),
      },
    }),
  ].join("\n");
}

/** A session with a branch left behind: e2 answered twice, the first answer abandoned. */
function branchedSession(): string {
  const t = (s: number) => `2026-11-02T10:0${s}:00.000Z`;
  const message = (id: string, parentId: string | null, role: string, text: string, s: number) =>
    line({
      type: "message",
      id,
      parentId,
      timestamp: t(s),
      message:
        role === "user"
          ? { role, content: text, timestamp: t(s) }
          : { role, provider: "p", model: "m", content: [{ type: "text", text }], timestamp: t(s) },
    });
  return [
    line({ type: "session", version: 3, id: BRANCHED_ID, timestamp: t(0), cwd: "/home/dev/blog" }),
    message("b1", null, "user", "question one", 1),
    message("b2", "b1", "assistant", "abandoned answer", 2),
    line({
      type: "branch_summary",
      id: "b3",
      parentId: "b1",
      timestamp: t(3),
      fromId: "b2",
      summary: "tried another way",
    }),
    message("b4", "b3", "assistant", "kept answer", 4),
  ].join("\n");
}

beforeAll(() => {
  agent = makeAgentDir();
  mkdirSync(join(agent.sessionsDir, "--home-dev-hostile--"));
  writeFileSync(
    join(agent.sessionsDir, "--home-dev-hostile--", `2026-11-01T10-00-00-000Z_${HOSTILE_ID}.jsonl`),
    `${hostileSession()}\n`,
  );
  writeFileSync(
    join(
      agent.sessionsDir,
      "--home-dev-hostile--",
      `2026-11-02T10-00-00-000Z_${BRANCHED_ID}.jsonl`,
    ),
    `${branchedSession()}\n`,
  );
});
afterAll(() => agent.cleanup());

interface Tag {
  name: string;
  closing: boolean;
  attributes: Map<string, string>;
}

/**
 * Every tag of the HTML, in order. Sound only because every text of the page is escaped: a `<`
 * that is not a tag is `&lt;`, and a `"` or `>` in an attribute value is an entity, so what this
 * finds is what a browser would find.
 */
function tagsOf(html: string): Tag[] {
  return [...html.matchAll(/<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)].map(
    (m) => ({
      name: m[2]!.toLowerCase(),
      closing: m[1] === "/",
      attributes: new Map(
        [...m[3]!.matchAll(/\s+([^\s=>]+)(?:="([^"]*)")?/g)].map((a) => [
          a[1]!.toLowerCase(),
          a[2] ?? "",
        ]),
      ),
    }),
  );
}

/**
 * Everything of the page that is not a tag, with `<!DOCTYPE html>` taken out: no `<` may be left.
 */
function textOutsideTags(html: string): string {
  return html
    .replace(/^<!DOCTYPE html>/, "")
    .replace(/<\/?[a-zA-Z][\w-]*(?:\s+[^\s=>]+(?:="[^"]*")?)*\s*\/?>/g, "");
}

const ELEMENTS = new Set(
  "html head meta title style body header h1 h2 h3 dl dt dd main article section p span time code pre details summary div footer a em strong ul ol li blockquote table thead tbody tr th td hr br del s".split(
    " ",
  ),
);

describe("recall export --format html: a hostile session", () => {
  let html: string;
  beforeAll(async () => {
    const result = await recall(["export", HOSTILE_ID, "--format", "html"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    html = result.stdout;
  });

  it("holds only the elements of a document and text: no script, image, frame, form, link, base or object", () => {
    const names = new Set(tagsOf(html).map((t) => t.name));
    expect([...names].filter((n) => !ELEMENTS.has(n))).toEqual([]);
    expect(textOutsideTags(html)).not.toContain("<");
    expect(html.toLowerCase()).not.toContain("<script");
  });

  it("no event handler, no style attribute, and links only to http(s) with rel=noopener noreferrer", () => {
    const tags = tagsOf(html).filter((t) => !t.closing);
    expect(
      tags.flatMap((t) =>
        [...t.attributes.keys()].filter(
          (a) => a.startsWith("on") || a === "style" || a === "src" || a === "srcset",
        ),
      ),
    ).toEqual([]);
    const links = tags.filter((t) => t.name === "a");
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link.attributes.get("href")).toMatch(/^https?:\/\//);
      expect(link.attributes.get("rel")).toBe("noopener noreferrer");
    }
    expect(links.map((l) => l.attributes.get("href"))).toContain(
      "https://example.com/docs?a=1&amp;b=%3C2%3E",
    );
    expect(html).not.toMatch(/href="(javascript|data):/i);
  });

  it("one style element, allowed by its hash in a policy that allows nothing else", () => {
    const metas = tagsOf(html).filter(
      (t) => t.name === "meta" && t.attributes.get("http-equiv") === "Content-Security-Policy",
    );
    expect(metas).toHaveLength(1);
    const policy = metas[0]!.attributes.get("content")!.replace(/&#39;/g, "'");
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    const hash = createHash("sha256").update(styles[0]![1]!, "utf8").digest("base64");
    const directives = new Map(
      policy
        .split(";")
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values.join(" ")]),
    );
    expect(directives.get("default-src")).toBe("'none'");
    expect(directives.get("style-src")).toBe(`'sha256-${hash}'`);
    for (const name of [
      "img-src",
      "connect-src",
      "font-src",
      "base-uri",
      "form-action",
      "frame-src",
      "object-src",
    ])
      expect(directives.get(name)).toBe("'none'");
    expect(directives.has("script-src")).toBe(false);
    // The meta comes before anything of the session.
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<title>"));
  });

  it("shows every hostile text as text, escaped, in the title, header, messages, code, calls, outputs, commands and summaries", () => {
    expect(html).toContain(
      `<title>&lt;/title&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;</title>`,
    );
    expect(html).toContain("/home/dev/&lt;b&gt;shop&lt;/b&gt;");
    // The address in it is linked (linkify), as text around the link.
    expect(html).toMatch(
      /&lt;img src=&quot;<a href="https:\/\/evil\.example\/i\.png" rel="noopener noreferrer">[^<]*<\/a>&quot; onerror=&quot;alert\(1\)&quot;&gt;/,
    );
    expect(html).toContain("[image: tracker https://evil.example/pixel.png]");
    expect(html).toContain("&lt;b&gt;bash&lt;/b&gt;");
    expect(html).toContain(
      `id="entry-x&quot;&gt;&lt;script&gt;alert(&#39;id&#39;)&lt;/script&gt;"`,
    );
    // Inside highlighted code too (the fence's language is one highlight.js knows).
    expect(html).toMatch(/<code class="hljs language-js">[\s\S]*&lt;\/script&gt;/);
    expect(html).toContain("Error: &lt;script&gt;err&lt;/script&gt;");
    expect(html.split("&lt;script&gt;").length).toBeGreaterThan(8);
  });

  it("collapses the tool call with its output, thinking, the shell command and the compaction; tables align by class", () => {
    const details = html.match(/<details[^>]*>\s*<summary>[^\n]*<\/summary>/g)!;
    expect(details.map((d) => /<summary>(Tool call|Thinking|Ran|Summary)/.exec(d)?.[1])).toEqual([
      "Thinking",
      "Tool call",
      "Ran",
      "Summary",
    ]);
    expect(html).toMatch(
      /<details class="failed"><summary>Tool call <code>&lt;b&gt;bash&lt;\/b&gt;<\/code>[\s\S]*?Output \(failed\):[\s\S]*?&lt;\/pre&gt;&lt;script&gt;[\s\S]*?<\/details>/,
    );
    // The output is shown under its call, not again on its own.
    expect(html.match(/&lt;\/pre&gt;&lt;script&gt;/g)).toHaveLength(1);
    expect(html).toContain(`<th class="align-right">right</th>`);
    expect(html).toContain("1,234 tokens summarized");
  });
});

const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

const noChromium = chromium
  ? ""
  : " (skipped: Debian's chromium is not installed, /usr/bin/chromium)";

describe.skipIf(!chromium)(`recall export --format html in Debian's chromium${noChromium}`, () => {
  it("parses to a page without a script or a loaded resource, its style applied under its policy, nothing refused", async () => {
    const out = join(agent.root, "hostile.html");
    const result = await recall(["export", HOSTILE_ID, "--format", "html", "-o", out]);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const run = spawnSync(
      chromium!,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        `--user-data-dir=${join(agent.root, "chromium")}`,
        "--enable-logging=stderr",
        "--v=0",
        "--dump-dom",
        `file://${out}`,
      ],
      {
        encoding: "utf8",
        timeout: 120_000,
        env: { ...process.env, HOME: agent.root },
      },
    );
    expect(run.status).toBe(0);
    const dom = run.stdout;
    expect(dom).toContain("<details");
    // What the browser built: no element a message could have smuggled in, the title as written.
    expect(dom.toLowerCase()).not.toMatch(/<(script|img|iframe|svg|base|object|embed|form|link)\b/);
    expect(dom).toContain(
      "<title>&lt;/title&gt;&lt;script&gt;document.title='pwned'&lt;/script&gt;</title>",
    );
    // Chromium logs each refusal of its policy on the console: the one style was allowed, nothing
    // else asked.
    const console = run.stderr.split("\n").filter((l) => l.includes(":CONSOLE"));
    expect(console).toEqual([]);
  });
});

describe("recall export --format md", () => {
  it("a fixture session: header, messages, thinking as a quote, the tool call with its output, resume line", async () => {
    const result = await recall(["export", DEPLOY]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const md = result.stdout;
    expect(md).toMatch(/^# Fix staging deploy: readiness probe and nginx ingress\n/);
    expect(md).toContain("- **Folder:** `/home/dev/shop-api`");
    expect(md).toContain("- **Models:** faux/faux-large");
    expect(md).toMatch(
      /- \*\*Resume:\*\* `cd \/home\/dev\/shop-api && pi --session \S+01a0f6b1-2680-79e3-a1fa-30b6f0582ef5\.jsonl`/,
    );
    expect(md).toContain("> *Thinking*\n>\n> zephyrthought:");
    expect(md).toMatch(
      /\*\*Tool call\*\* `read`: deploy\/staging\.log\n\n```json\n\{\n {2}"path": "deploy\/staging\.log"\n\}\n```\n\n\*\*Output\*\*:\n\n```\n08:55:02 rollout/,
    );
    expect(md).toContain("## User · 2026-10-01 09:00 UTC\n\nThe staging deploy is broken");
    expect(md).not.toMatch(/\n\n\n/);
  });

  it("fences hold any backticks; the title's Markdown is escaped", async () => {
    const md = (await recall(["export", HOSTILE_ID])).stdout;
    expect(md.split("\n")[0]).toBe("# \\</title\\>\\<script\\>document.title='pwned'\\</script\\>");
    expect(md).toContain("**Tool call** `<b>bash</b>`");
    expect(md).toContain("## Compaction (1,234 tokens summarized)");
  });

  it("the active branch by default; --all-branches marks the branch left behind where it left", async () => {
    const active = (await recall(["export", BRANCHED_ID])).stdout;
    expect(active).toContain("kept answer");
    expect(active).not.toContain("abandoned answer");
    const all = (await recall(["export", BRANCHED_ID, "--all-branches"])).stdout;
    expect(all.indexOf("question one")).toBeLessThan(all.indexOf("**Branch left behind**"));
    expect(all.indexOf("**Branch left behind**")).toBeLessThan(all.indexOf("abandoned answer"));
    expect(all.indexOf("abandoned answer")).toBeLessThan(all.indexOf("kept answer"));
    const html = (await recall(["export", BRANCHED_ID, "--all-branches", "--format", "html"]))
      .stdout;
    expect(html).toMatch(
      /<p class="branch-note">[^<]*<\/p>\n<article class="entry assistant abandoned"[^>]*>[\s\S]*abandoned answer/,
    );
    const keptArticle = html.slice(
      html.lastIndexOf("<article", html.indexOf("kept answer")),
      html.indexOf("kept answer"),
    );
    expect(keptArticle).toMatch(/^<article class="entry assistant" /);
  });
});

describe("recall export --redact", () => {
  it("replaces the secret in Markdown and HTML and says how many went; without it the text is as written", async () => {
    const plain = await recall(["export", HOSTILE_ID]);
    expect(plain.stdout).toContain(SECRET.secret);
    expect(plain.stdout).not.toContain("Redacted");
    for (const format of ["md", "html"]) {
      const result = await recall(["export", HOSTILE_ID, "--format", format, "--redact"]);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout).not.toContain(SECRET.secret);
      expect(result.stdout).toContain("[REDACTED:");
      expect(result.stdout).toMatch(/Redacted(:\*\* |<\/dt><dd>)1 secret replaced/);
    }
  });
});

describe("recall export -o and errors", () => {
  it("-o writes the file whole, replacing one there, and leaves no temporary file", async () => {
    const folder = join(agent.root, "out");
    mkdirSync(folder);
    const file = join(folder, "s.html");
    writeFileSync(file, "old");
    const result = await recall(["export", DEPLOY, "--format", "html", "-o", file]);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(file, "utf8")).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
    expect(readdirSync(folder)).toEqual(["s.html"]);
  });

  it("the session on stdin with -", async () => {
    const result = await recall(["export", "-"], `${DEPLOY}\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# Fix staging deploy/);
  });

  it("one line on stderr and exit 2: unknown session, bad format, a folder, an unwritable place", async () => {
    const readOnly = join(agent.root, "ro");
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o500);
    const cases: Array<[string[], RegExp]> = [
      [["export", "ffffffff"], /no session with id or id prefix/],
      [["export", DEPLOY, "--format", "pdf"], /--format/],
      [["export", DEPLOY, "-o", agent.root], /is a directory/],
      [
        ["export", DEPLOY, "-o", join(agent.root, "missing", "x.md")],
        /cannot write .*its folder does not exist/,
      ],
    ];
    if (process.getuid?.() !== 0)
      cases.push([
        ["export", DEPLOY, "-o", join(readOnly, "x.md")],
        /cannot write .*permission denied/,
      ]);
    for (const [args, message] of cases) {
      const result = await recall(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(readdirSync(join(agent.root))).not.toContain("missing");
  });

  it("a broken pipe ends it quietly with status 0", () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(RECALL_BIN)} export ${DEPLOY} --format html | head -c 10 >/dev/null; exit \${PIPESTATUS[0]}`;
    const run = spawnSync("bash", ["-c", command], { env: agent.env, encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  });
});

describe("recall export of what cannot be read whole", () => {
  /** Long enough for a cold start on a busy machine; a hang goes on forever. */
  const HANG_MS = 30_000;
  const HUGE_ID = "0e000000-0000-7000-8000-0000000000e3";

  /**
   * A session file that says it is one, made (sparse) 65 MiB long: over the 64 MiB an export takes.
   */
  function hugeSession(): string {
    const path = join(agent.root, `2026-11-03T10-00-00-000Z_${HUGE_ID}.jsonl`);
    writeFileSync(
      path,
      `${line({ type: "session", version: 3, id: HUGE_ID, timestamp: "2026-11-03T10:00:00.000Z", cwd: "/home/dev/huge" })}\n`,
    );
    truncateSync(path, 65 * 1024 * 1024);
    return path;
  }

  it("a FIFO, /dev/zero behind a session's path, a folder, a file too large: one line, exit 2, at once", async () => {
    const fifo = join(agent.root, "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    const zero = join(
      agent.sessionsDir,
      "--home-dev-hostile--",
      "2026-11-04T10-00-00-000Z_0e000000-0000-7000-8000-0000000000e4.jsonl",
    );
    symlinkSync("/dev/zero", zero);
    const folder = join(agent.root, "folder.jsonl");
    mkdirSync(folder);
    const cases: Array<[string, RegExp]> = [
      [fifo, /is not a regular file \(a FIFO\)/],
      [zero, /is not a regular file \(a character device\)/],
      [folder, /is a folder, not a session file/],
      [
        hugeSession(),
        /^recall: the session file is 65 MiB, more than the 64 MiB read whole at once; an export holds the whole session at once/,
      ],
    ];
    try {
      for (const [path, message] of cases) {
        for (const format of ["md", "html"]) {
          const result = await runRecall(["export", path, "--format", format], {
            env: agent.env,
            timeoutMs: HANG_MS,
          });
          expect(result.timedOut, path).toBeUndefined();
          expect(result.code, path).toBe(2);
          expect(result.stdout).toBe("");
          expect(result.stderr).toMatch(message);
          expect(result.stderr.trim().split("\n")).toHaveLength(1);
        }
      }
    } finally {
      for (const path of [fifo, zero, folder]) rmSync(path, { recursive: true, force: true });
    }
  });

  it("the library refuses a session whose file became a FIFO or too large, before reading any of it", async () => {
    const { Recall } = await import("../src/index.js");
    const library = Recall.open({ env: agent.env, cwd: agent.root });
    const path = join(
      agent.sessionsDir,
      "--home-dev-hostile--",
      `2026-11-05T10-00-00-000Z_${HUGE_ID}.jsonl`,
    );
    try {
      writeFileSync(
        path,
        `${line({ type: "session", version: 3, id: HUGE_ID, timestamp: "2026-11-05T10:00:00.000Z", cwd: "/home/dev/huge" })}\n`,
      );
      const session = await library.resolve(HUGE_ID);
      rmSync(path);
      execFileSync("mkfifo", [path]);
      await expect(library.exports.render(session)).rejects.toMatchObject({
        code: "UNSAFE_FILE",
        message: "the session file is not a regular file (a FIFO)",
      });
      rmSync(path);
      writeFileSync(path, "");
      truncateSync(path, 64 * 1024 * 1024 + 1);
      await expect(library.exports.document(session)).rejects.toMatchObject({
        code: "FILE_TOO_LARGE",
        value: String(64 * 1024 * 1024 + 1),
      });
    } finally {
      library.close();
      rmSync(path, { force: true });
    }
  });
});

describe("the library's exports.document and exports.render", () => {
  it("gives the session as blocks, a tool call with its answer, replies with model and usage; rendering needs no file of its own", async () => {
    const { Recall } = await import("../src/index.js");
    const library = Recall.open({ env: agent.env, cwd: agent.root });
    try {
      const session = await library.exports.document(DEPLOY);
      expect(session).toMatchObject({
        id: "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5",
        cwd: "/home/dev/shop-api",
        models: ["faux/faux-large"],
        redacted: null,
        allBranches: false,
      });
      expect(session.entries.map((e) => e.kind).slice(0, 3)).toEqual([
        "user",
        "assistant",
        "toolResult",
      ]);
      const reply = session.entries[1]!;
      expect(reply.blocks.map((b) => b.type)).toEqual(["thinking", "text", "toolCall"]);
      const call = reply.blocks[2] as {
        type: "toolCall";
        id: string;
        name: string;
        arguments: string;
      };
      expect(JSON.parse(call.arguments)).toEqual({ path: "deploy/staging.log" });
      expect(session.entries[2]).toMatchObject({
        kind: "toolResult",
        toolCallId: call.id,
        toolName: "read",
        isError: false,
      });
      expect(reply.usage!.output).toBeGreaterThan(0);
      const html = await library.exports.render(DEPLOY, { format: "html" });
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      await expect(library.exports.render(DEPLOY, { format: "pdf" as "md" })).rejects.toMatchObject(
        { code: "BAD_INPUT", field: "format" },
      );
    } finally {
      library.close();
    }
  });
});
