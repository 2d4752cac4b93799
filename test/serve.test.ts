/**
 * `recall serve` as a user runs it: the built CLI in a child process, over the fixture sessions.
 * Over HTTP: who it answers (its host names, the run's secret, changes only from its own origin
 * as JSON), its security headers, search as you type, a session page and its parts, tags, export,
 * activity, the live feed, a hostile session's text, and its errors. In Debian's chromium
 * (playwright-core): typing a query, opening a hit at its matched message, expanding a tool call,
 * exporting, tagging, a new session appearing without a reload, a hostile session that runs
 * nothing and fetches nothing. Against a real OpenSearch: the archive scope, and pulling a kept
 * file from a session's page.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FIRST_SCREEN_PARTS,
  type ActivityAnswer,
  type SearchAnswer,
  type SessionAnswer,
  type TagsAnswer,
} from "../src/serve/wire.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { needsOpenSearch, openSearchMissing, openSearchUrl } from "./helpers/opensearch.js";
import { runRecall } from "./helpers/run-cli.js";
import { startServe, type Serving } from "./helpers/serve-run.js";

const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const HOSTILE_ID = "0e000000-0000-7000-8000-0000000000f1";
const LONG_ID = "0e000000-0000-7000-8000-0000000000f4";
const LONG_MESSAGES = 130;
const HOSTILE_TEXTS = [
  "<script>document.title='pwned'</script> hostilewordzz",
  `<img src="https://evil.example/i.png" onerror="alert(1)">`,
  `"><svg onload=alert(1)>`,
  "[click me](javascript:alert(1)) and ![tracker](https://evil.example/pixel.png)",
  "</style><style>body{display:none}</style><iframe src=https://evil.example/></iframe>",
];

/**
 * A session file as Pi writes one: a header, then user messages a second apart, each the child of
 * the one before.
 */
function writeSession(
  agent: AgentDir,
  folder: string,
  id: string,
  texts: string[],
  ms = Date.now() - 3_600_000,
): string {
  const dir = join(agent.sessionsDir, folder);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date(ms).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`);
  const header = JSON.stringify({
    type: "session",
    version: 3,
    id,
    timestamp: new Date(ms).toISOString(),
    cwd: "/home/dev/web",
  });
  const lines = texts.map((text, i) => {
    const at = ms + i * 1000;
    const message = { role: "user", content: text, timestamp: at };
    return JSON.stringify({
      type: "message",
      id: `e${String(i).padStart(7, "0")}`,
      parentId: i === 0 ? null : `e${String(i - 1).padStart(7, "0")}`,
      timestamp: new Date(at).toISOString(),
      message,
    });
  });
  writeFileSync(file, `${header}\n${lines.join("\n")}\n`);
  return file;
}

let agent: AgentDir;
let serving: Serving;

function get(path: string, init: RequestInit & { cookie?: boolean } = {}): Promise<Response> {
  const { cookie = true, headers, ...rest } = init;
  return fetch(`${serving.origin}${path}`, {
    redirect: "manual",
    ...rest,
    headers: {
      ...(cookie ? { cookie: serving.cookie } : {}),
      ...(headers as Record<string, string>),
    },
  });
}

async function getJson<T>(path: string): Promise<T> {
  const response = await get(path);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

describe("recall serve over HTTP", () => {
  beforeAll(async () => {
    agent = makeAgentDir();
    writeSession(agent, "--home-dev-web--", HOSTILE_ID, HOSTILE_TEXTS);
    serving = await startServe(agent.env);
  });
  afterAll(async () => {
    expect(await serving.stop()).toBe(0);
    agent.cleanup();
  });

  it("prints one address on 127.0.0.1 with the run's secret, and says how to stop on stderr", () => {
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
    expect(serving.stderr()).toContain("Ctrl-C stops");
  });

  it("admits the printed address once with a cookie, and refuses a missing or wrong secret", async () => {
    const admitted = await get(new URL(serving.url).pathname + new URL(serving.url).search, {
      cookie: false,
    });
    expect(admitted.status).toBe(303);
    expect(admitted.headers.get("location")).toBe("/");
    expect(admitted.headers.get("set-cookie")).toBe(
      `${serving.cookie}; HttpOnly; SameSite=Strict; Path=/`,
    );
    expect((await get("/", { cookie: false })).status).toBe(401);
    expect((await get("/api/search?q=staging", { cookie: false })).status).toBe(401);
    expect((await get("/?token=not-the-secret", { cookie: false })).status).toBe(403);
    expect(
      (
        await get("/api/info", {
          cookie: false,
          headers: { cookie: `recall-${serving.port}=${"x".repeat(32)}` },
        })
      ).status,
    ).toBe(401);
  });

  it("refuses another host name even with the secret (DNS rebinding)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: serving.port,
          path: "/api/info",
          headers: { host: `rebound.example:${serving.port}`, cookie: serving.cookie },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(421);
    const local = await fetch(`http://localhost:${serving.port}/api/info`, {
      headers: { cookie: serving.cookie },
    }).catch(() => null);
    if (local) expect(local.status).toBe(200);
  });

  it("sends every answer under a policy that runs only its own script and frames nothing", async () => {
    for (const path of ["/", "/api/info", "/assets/app.js", "/nothing-here"]) {
      const response = await get(path);
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain("unsafe");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    }
    const shell = await (await get("/session/anything")).text();
    expect(shell).toContain(`<script type="module" src="/assets/app.js"></script>`);
    expect(shell).not.toMatch(/https?:\/\//);
  });

  it("searches as you type: the last word as a prefix, its matches marked", async () => {
    const found = await getJson<SearchAnswer>("/api/search?q=kubectl%20rollo");
    expect(found.hits.map((h) => h.id)).toContain(S1);
    const hit = found.hits.find((h) => h.id === S1)!;
    expect(hit.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase())).toEqual(
      expect.arrayContaining(["kubectl"]),
    );
    expect(hit.entryId).toBeTruthy();
    const recent = await getJson<SearchAnswer>("/api/search?q=");
    expect(recent.hits.length).toBeGreaterThan(3);
    const none = await getJson<SearchAnswer>("/api/search?q=zzqqxxyyww");
    expect(none.hits).toEqual([]);
    const scoped = await getJson<SearchAnswer>("/api/search?q=staging&scope=folder");
    expect(scoped.hits).toEqual([]);
    expect((await get("/api/search?q=x&scope=elsewhere")).status).toBe(400);
  });

  it("shows a session a page of parts at a time, marking the matched entry", async () => {
    const hit = (await getJson<SearchAnswer>("/api/search?q=quuxtooloutput")).hits;
    expect(hit).toEqual([]);
    const found = (await getJson<SearchAnswer>("/api/search?q=nginx%20ingress")).hits.find(
      (h) => h.id === S1,
    )!;
    const session = await getJson<SessionAnswer>(
      `/api/sessions/${S1.slice(0, 8)}?entry=${found.entryId}`,
    );
    expect(session.id).toBe(S1);
    expect(session.marked).toBeGreaterThanOrEqual(0);
    expect(session.parts[session.marked - session.from]!.entryIds).toContain(found.entryId);
    expect(session.resume).toContain("pi --session");
    const html = session.parts.map((p) => p.html).join("");
    expect(html).toContain("<details>");
    expect(html).toContain("quuxtooloutput");
    const later = await getJson<{ from: number; parts: unknown[] }>(
      `/api/sessions/${S1}/parts?from=1&count=2`,
    );
    expect(later.parts).toHaveLength(2);
  });

  it("shows the branches left behind on request, each marked", async () => {
    const active = await getJson<SessionAnswer>("/api/sessions/01a0f6e8");
    expect(active.parts.map((p) => p.html).join("")).not.toContain("abandonedbranchword");
    const all = await getJson<SessionAnswer>("/api/sessions/01a0f6e8?branches=all");
    const html = all.parts.map((p) => p.html).join("");
    expect(html).toMatch(/<article class="entry \w+ abandoned"[^>]*>[\s\S]*?abandonedbranchword/);
    expect(all.total).toBeGreaterThan(active.total);
  });

  it("names a session only by id: a path, a traversal or an unknown id is refused", async () => {
    expect((await get(`/api/sessions/${encodeURIComponent("/etc/passwd")}`)).status).toBe(400);
    expect((await get(`/api/sessions/..%2F..%2Fetc%2Fpasswd`)).status).toBe(400);
    expect((await get(`/api/sessions/x.jsonl`)).status).toBe(400);
    const unknown = await get(`/api/sessions/ffffffff-ffff`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/no session/);
  });

  it("renders a hostile session's text as text", async () => {
    const session = await getJson<SessionAnswer>(`/api/sessions/${HOSTILE_ID}`);
    const html = session.parts.map((p) => p.html).join("");
    expect(html).toContain("hostilewordzz");
    expect(html).not.toMatch(/<(script|img|svg|iframe|style)\b/i);
    expect(html).not.toMatch(/<[^>]*\son\w+=/i);
    expect(html).not.toContain(`href="javascript:`);
  });

  it("takes tag changes only as JSON from its own origin, and they are recall's tags", async () => {
    const path = `/api/sessions/${S1}/tags`;
    const body = JSON.stringify({ add: ["Web Tag"] });
    expect(
      (await get(path, { method: "POST", body, headers: { "content-type": "text/plain" } })).status,
    ).toBe(415);
    expect(
      (
        await get(path, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", origin: "https://evil.example" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await get(path, {
          method: "POST",
          body: "{",
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(400);
    const added = await get(path, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", origin: serving.origin },
    });
    expect(added.status).toBe(200);
    expect(((await added.json()) as TagsAnswer).tags).toContain("web-tag");
    const tags = await runRecall(["tags", "--json"], { env: agent.env });
    expect(tags.stdout).toContain(`"web-tag"`);
    const removed = (await (
      await get(path, {
        method: "POST",
        body: JSON.stringify({ remove: ["web-tag"] }),
        headers: { "content-type": "application/json" },
      })
    ).json()) as TagsAnswer;
    expect(removed.tags).not.toContain("web-tag");
  });

  it("exports a session as an attachment, Markdown or one self-contained HTML file", async () => {
    const html = await get(`/api/sessions/${S1}/export?format=html`);
    expect(html.headers.get("content-disposition")).toBe(
      `attachment; filename="session-${S1}.html"`,
    );
    expect(await html.text()).toContain(`http-equiv="Content-Security-Policy"`);
    const md = await get(`/api/sessions/${S1}/export?format=md`);
    expect(md.headers.get("content-type")).toContain("text/markdown");
    expect(await md.text()).toContain("staging deploy");
    expect((await get(`/api/sessions/${S1}/export?format=pdf`)).status).toBe(400);
  });

  it("draws the activity as SVG pictures with escaped labels", async () => {
    const activity = await getJson<ActivityAnswer>("/api/activity?since=");
    expect(activity.totals.sessions).toBeGreaterThan(3);
    expect(activity.charts.map((c) => c.title)).toEqual(
      expect.arrayContaining(["Messages per project", "Replies per model"]),
    );
    for (const chart of activity.charts) {
      expect(chart.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(chart.svg).not.toMatch(/<script|style=|\son\w+=/i);
    }
    expect((await get("/api/activity?since=-1")).status).toBe(400);
  });

  it("tells open pages when a sync changed the index", async () => {
    const controller = new AbortController();
    const feed = await get("/api/events", { signal: controller.signal });
    expect(feed.headers.get("content-type")).toContain("text/event-stream");
    const reader = feed.body!.getReader();
    let seen = "";
    // The server follows the index once its first sync is done: the feed says so at once, or when
    // it is.
    while (!/^: following$|^event: following$/m.test(seen))
      seen += new TextDecoder().decode((await reader.read()).value);
    writeSession(agent, "--home-dev-web--", "0e000000-0000-7000-8000-0000000000f2", [
      "livefeedwordzz arrives",
    ]);
    while (!seen.includes("event: changed"))
      seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const found = await getJson<SearchAnswer>("/api/search?q=livefeedwordzz");
    expect(found.hits.map((h) => h.id)).toEqual(["0e000000-0000-7000-8000-0000000000f2"]);
  });
});

describe("recall serve's errors", () => {
  let errorAgent: AgentDir;
  beforeAll(() => (errorAgent = makeAgentDir()));
  afterAll(() => errorAgent.cleanup());

  it("a port that is not a number, or taken, is one line and exit 2", async () => {
    const bad = await runRecall(["serve", "--port", "http"], { env: errorAgent.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("--port");
    const holder = createServer();
    await new Promise<void>((listening) => holder.listen(0, "127.0.0.1", () => listening()));
    const port = (holder.address() as { port: number }).port;
    const taken = await runRecall(["serve", "--port", String(port)], { env: errorAgent.env });
    holder.close();
    expect(taken.code).toBe(2);
    expect(taken.stderr).toBe(
      `recall: port ${port} is taken: choose another with --port, or leave it out for a free one\n`,
    );
  });

  it("a remote the config does not name is one line and exit 2", async () => {
    const missing = await runRecall(["serve", "--remote", "nowhere"], { env: errorAgent.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no remote named nowhere");
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a sessions folder a setting names wrongly is one line and exit 2", async () => {
    const missing = await runRecall(["serve", "--sessions-dir", "/nonexistent/sessions"], {
      env: errorAgent.env,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "recall: there is no sessions folder at /nonexistent/sessions (set by --sessions-dir)\n",
    );
  });

  it("another host is served with a warning", async () => {
    const other = await startServe(errorAgent.env, ["--host", "0.0.0.0"]);
    expect(other.stderr()).toContain("listening on 0.0.0.0, not this machine only");
    expect(await other.stop()).toBe(0);
  });
});

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const noChromium = CHROMIUM
  ? ""
  : " (skipped: Debian's chromium is not installed, /usr/bin/chromium)";

describe.skipIf(!CHROMIUM)(`recall serve in Debian's chromium${noChromium}`, () => {
  let browserAgent: AgentDir;
  let app: Serving;
  let browser: import("playwright-core").Browser;
  let page: import("playwright-core").Page;
  const requests: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    browserAgent = makeAgentDir();
    writeSession(browserAgent, "--home-dev-web--", HOSTILE_ID, HOSTILE_TEXTS);
    writeSession(
      browserAgent,
      "--home-dev-web--",
      LONG_ID,
      Array.from({ length: LONG_MESSAGES }, (_, i) => `longsessionline number ${i}`),
      Date.now() - 86_400_000,
    );
    app = await startServe(browserAgent.env);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    const context = await browser.newContext({ acceptDownloads: true });
    page = await context.newPage();
    page.on("request", (request) => requests.push(request.url()));
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss().catch(() => undefined);
    });
    await page.goto(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    expect(await app.stop()).toBe(0);
    browserAgent.cleanup();
  });

  it("lists recent sessions, and the hits follow what is typed, with the query in the address", async () => {
    await page.waitForSelector("li.hit");
    await page.locator("input[type=search]").pressSequentially("kubectl roll");
    // The recent sessions (ten) give way to those the query finds, each with its words marked.
    await page.waitForFunction(() => {
      const hits = Array.from(document.querySelectorAll("li.hit"));
      return (
        hits.length > 0 &&
        hits.length < 10 &&
        hits.some((hit) => /kubectl/i.test(hit.querySelector("mark")?.textContent ?? ""))
      );
    });
    expect(await page.locator("li.hit .title").allTextContents()).toContain(
      "Fix staging deploy: readiness probe and nginx ingress",
    );
    expect(new URL(page.url()).searchParams.get("q")).toBe("kubectl roll");
  });

  it("opens the selected hit at its matched message, and a tool call expands", async () => {
    await page.locator("input[type=search]").press("Enter");
    await page.waitForSelector(".part.marked");
    expect(new URL(page.url()).pathname).toMatch(/^\/session\//);
    const details = page.locator(".conversation details").first();
    const open = await details.evaluate((d) => (d as HTMLDetailsElement).open);
    await details.locator("summary").click();
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(!open);
    await page.getByRole("button", { name: "Expand all" }).click();
    expect(await page.locator(".conversation details:not([open])").count()).toBe(0);
  });

  it("exports the session from its page", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "HTML", exact: true }).click(),
    ]);
    const text = readFileSync((await download.path())!, "utf8");
    expect(text).toContain(`http-equiv="Content-Security-Policy"`);
    expect(download.suggestedFilename()).toMatch(/^session-.*\.html$/);
  });

  it("tags the session, and recall tags lists the tag", async () => {
    await page.getByLabel("Add tags").fill("from-browser");
    await page.getByLabel("Add tags").press("Enter");
    await page.waitForSelector("text=#from-browser");
    expect((await runRecall(["tags", "--json"], { env: browserAgent.env })).stdout).toContain(
      `"from-browser"`,
    );
  });

  it("shows a new session without a reload", async () => {
    await page.goto(`${app.origin}/?q=browserlivewordzz`);
    await page.waitForSelector("text=No session matches");
    writeSession(browserAgent, "--home-dev-web--", "0e000000-0000-7000-8000-0000000000f3", [
      "browserlivewordzz is new",
    ]);
    await page.waitForSelector("li.hit");
    expect(await page.locator("li.hit").count()).toBe(1);
  });

  it("shows a hostile session as text: nothing runs, nothing is fetched from elsewhere", async () => {
    await page.goto(`${app.origin}/session/${HOSTILE_ID}`);
    await page.waitForSelector(".part");
    await page.getByRole("button", { name: "Expand all" }).click();
    expect(await page.locator(".conversation").textContent()).toContain(
      "<script>document.title='pwned'</script>",
    );
    // The title is the session's first message, as text; the script in it would have made it
    // "pwned".
    expect(await page.title()).toBe(
      "<script>document.title='pwned'</script> hostilewordzz · recall",
    );
    expect(
      await page.locator(".conversation img, .conversation script, .conversation iframe").count(),
    ).toBe(0);
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
  });

  it("opens a long session a screen first, then the rest as the reader scrolls", async () => {
    const first = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/sessions/${LONG_ID}`,
    );
    await page.goto(`${app.origin}/session/${LONG_ID}`);
    const answer = (await (await first).json()) as SessionAnswer;
    expect(answer.parts).toHaveLength(FIRST_SCREEN_PARTS);
    expect(answer.total).toBe(LONG_MESSAGES);
    for (
      let shown = await page.locator(".part").count();
      shown < LONG_MESSAGES;
      shown = await page.locator(".part").count()
    ) {
      await page.locator(".conversation .end").scrollIntoViewIfNeeded();
      await page.waitForFunction((n) => document.querySelectorAll(".part").length > n, shown);
    }
    expect(await page.locator(".part").last().textContent()).toContain(
      `longsessionline number ${LONG_MESSAGES - 1}`,
    );
  });

  it("draws the activity page", async () => {
    await page.goto(`${app.origin}/activity?since=`);
    await page.waitForSelector("svg.chart");
    expect(await page.locator("figure.chart-figure").count()).toBeGreaterThanOrEqual(4);
  });
});

const INDEX = "recall-serve-test";
const BOB_SESSION = "0b0b0b0b-3333-7333-8444-955556666777";

describe.skipIf(openSearchMissing)(
  needsOpenSearch("recall serve over a team archive on a real OpenSearch"),
  () => {
    let ada: AgentDir;
    let bob: AgentDir;
    let remoteApp: Serving;

    beforeAll(async () => {
      const url = await openSearchUrl();
      ada = makeAgentDir({ withFixtures: false });
      bob = makeAgentDir({ withFixtures: false });
      writeSession(
        bob,
        "--home-bob-shop--",
        BOB_SESSION,
        ["the numbat rollout plan for the archive", "second numbat note"],
        Date.parse("2026-10-05T08:00:00Z"),
      );
      for (const [agent, user, machine] of [
        [ada, "ada", "laptop"],
        [bob, "bob", "desktop"],
      ] as const) {
        const added = await runRecall(
          [
            "remote",
            "add",
            "team",
            url,
            "--index",
            INDEX,
            "--machine",
            machine,
            "--user",
            user,
            "--keep-files",
          ],
          { env: agent.env },
        );
        expect(added.stderr).toBe("");
      }
      expect((await runRecall(["push", "--remote", "team"], { env: bob.env })).stderr).toBe("");
      await fetch(`${url}/${INDEX}*/_refresh`, { method: "POST" });
      remoteApp = await startServe(ada.env, ["--remote", "team"]);
    });
    afterAll(async () => {
      expect(await remoteApp.stop()).toBe(0);
      ada.cleanup();
      bob.cleanup();
    });

    it("searches the archive, each hit with the machine and user it lives on", async () => {
      const response = await fetch(`${remoteApp.origin}/api/search?q=numbat&remote=team`, {
        headers: { cookie: remoteApp.cookie },
      });
      const found = (await response.json()) as SearchAnswer;
      expect(found.hits.map((h) => [h.id, h.origin])).toEqual([
        [BOB_SESSION, { remote: "team", machine: "desktop", user: "bob" }],
      ]);
      const info = (await (
        await fetch(`${remoteApp.origin}/api/info`, { headers: { cookie: remoteApp.cookie } })
      ).json()) as { remote: string; remotes: string[] };
      expect(info).toMatchObject({ remote: "team", remotes: ["team"] });
    });

    it.skipIf(!CHROMIUM)(`switches to the archive scope in the page${noChromium}`, async () => {
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      try {
        const page = await browser.newPage();
        await page.goto(remoteApp.url);
        await page.locator("input[type=search]").fill("numbat");
        await page.waitForSelector("li.hit .origin");
        expect(await page.locator("li.hit .origin").textContent()).toBe("bob@desktop");
        expect(await page.getByLabel("Scope").inputValue()).toBe("remote:team");
        await page.getByLabel("Scope").selectOption("all");
        await page.waitForSelector("text=No session matches");
      } finally {
        await browser.close();
      }
    });
    it("shows an archived session and pulls its kept file to resume it here", async () => {
      const session = (await (
        await fetch(`${remoteApp.origin}/api/sessions/${BOB_SESSION}?remote=team`, {
          headers: { cookie: remoteApp.cookie },
        })
      ).json()) as SessionAnswer;
      expect(session.origin).toEqual({ remote: "team", machine: "desktop", user: "bob" });
      expect(session.parts.map((p) => p.html).join("")).toContain("numbat rollout plan");
      const pulled = await fetch(
        `${remoteApp.origin}/api/sessions/${BOB_SESSION}/pull?remote=team`,
        {
          method: "POST",
          body: "{}",
          headers: { cookie: remoteApp.cookie, "content-type": "application/json" },
        },
      );
      expect(pulled.status, await pulled.clone().text()).toBe(200);
      expect(((await pulled.json()) as { resume: string }).resume).toMatch(
        /pi (--session|--fork) /,
      );
      expect((await runRecall(["list", "--json"], { env: ada.env })).stdout).toContain(BOB_SESSION);
    });
  },
);
