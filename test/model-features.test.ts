/**
 * `recall autotag` and `recall ask` end to end: the built CLI runs the real Pi 1.6.0 (the pinned
 * runtime, as `pi` through RECALL_PI), which calls a local model server on 127.0.0.1 registered in
 * the test agent folder's models.json. The server records what Pi sent and answers what each test
 * scripts. Skipped, visibly, without the Pi runtime (scripts/pi-runtime.sh installs it).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { PI_RUNTIME, PI_SKIP_REASON } from "./helpers/pi-env.js";
import { startModelServer, type ChatRequest, type ModelServer } from "./helpers/model-server.js";
import { jsonLines, RECALL_BIN, runRecall } from "./helpers/run-cli.js";

const STAGING = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

function userText(request: ChatRequest): string {
  const user = request.messages.find((m) => m.role === "user");
  return Array.isArray(user?.content)
    ? user.content.map((b: { text?: string }) => b.text ?? "").join("")
    : String(user?.content ?? "");
}

function systemText(request: ChatRequest): string {
  return String(request.messages.find((m) => m.role === "system")?.content ?? "");
}

describe.skipIf(!PI_RUNTIME)(
  `model features with the real Pi and a local model${PI_SKIP_REASON}`,
  () => {
    let server: ModelServer;
    let agent: AgentDir;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      server = await startModelServer();
    });
    afterAll(() => server.close());

    beforeEach(() => {
      agent = makeAgentDir();
      server.register(agent.agentDir);
      // A second model, to tell which one was asked.
      const models = JSON.parse(readFileSync(join(agent.agentDir, "models.json"), "utf8"));
      models.providers.local.models.push({ id: "other", name: "Other" });
      writeFileSync(join(agent.agentDir, "models.json"), JSON.stringify(models));
      // Pi's own retries would make a failing provider take seconds.
      writeFileSync(
        join(agent.agentDir, "settings.json"),
        JSON.stringify({ retry: { enabled: false } }),
      );
      const pi = join(agent.root, "pi");
      writeFileSync(
        pi,
        `#!/bin/sh\nexec ${JSON.stringify(PI_RUNTIME!.node)} ${JSON.stringify(PI_RUNTIME!.cli)} "$@"\n`,
      );
      chmodSync(pi, 0o755);
      env = { ...agent.env, RECALL_PI: pi, PI_OFFLINE: "1" };
      server.requests.length = 0;
    });
    afterEach(() => agent.cleanup());

    const recall = (args: string[], input?: string) =>
      runRecall(args, { env, cwd: agent.root, ...(input === undefined ? {} : { input }) });

    it("autotag sends a bounded, framed sample without tools, and saves the tags as automatic", async () => {
      server.script({
        text: '```json\n{"tags": ["Staging", "nginx-ingress", "readiness-probe", "k8s"]}\n```',
      });
      const result = await recall(["autotag", STAGING.slice(0, 8), "--model", "local/tagger"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("#staging #nginx-ingress #readiness-probe #k8s");
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request!.model).toBe("tagger");
      expect(request!.tools ?? []).toEqual([]);
      expect(systemText(request!)).toMatch(/untrusted data/);
      expect(systemText(request!)).toMatch(/JSON only/);
      const prompt = userText(request!);
      expect(prompt.length).toBeLessThanOrEqual(12_000);
      expect(prompt).toMatch(/<session>[\s\S]*readiness probe[\s\S]*<\/session>/);
      const tags = jsonLines((await recall(["tags", STAGING, "--json"])).stdout)[0]!;
      expect(tags).toMatchObject({
        manual: [],
        auto: ["k8s", "nginx-ingress", "readiness-probe", "staging"],
      });
      // At once in the index: #tag finds it.
      expect(
        jsonLines((await recall(["search", "#readiness-probe", "--json", "--no-sync"])).stdout).map(
          (h) => h.id,
        ),
      ).toEqual([STAGING]);
    });

    it("keeps manual tags, never brings back a suppressed one, and fails an answer with too few tags", async () => {
      await recall(["tag", STAGING, "k8s"]);
      await recall(["untag", STAGING, "nginx"]);
      server.script({ text: '["k8s", "nginx", "deploy", "staging", "probe"]' });
      const ok = await recall(["autotag", STAGING, "--json"]);
      expect(ok.code).toBe(0);
      expect(jsonLines(ok.stdout)[0]).toMatchObject({
        type: "tagged",
        id: STAGING,
        tags: ["deploy", "staging", "probe"],
        saved: true,
      });
      expect(userText(server.requests[0]!)).toContain("Existing tags: #k8s");

      server.script({ text: '{"tags": ["k8s", "nginx", "only-one"]}' });
      const few = await recall(["autotag", STAGING, "--json"]);
      expect(few.code).toBe(2);
      expect(jsonLines(few.stdout)[0]).toMatchObject({
        type: "failed",
        reason: expect.stringMatching(/1 usable tag, fewer than the minimum of 3/),
      });
      // Nothing written by a failed answer: the earlier automatic tags are still there.
      expect(jsonLines((await recall(["tags", STAGING, "--json"])).stdout)[0]).toMatchObject({
        auto: ["deploy", "probe", "staging"],
      });

      server.script({ text: "Sure! Here are some tags you might like: deploy, staging." });
      const garbage = await recall(["autotag", STAGING]);
      expect(garbage.code).toBe(2);
      expect(garbage.stderr).toMatch(/failed: the model's answer held no JSON list of tags/);
    });

    it("a batch asks for --yes without a terminal, then uses one Pi process for all of it; --all-untagged skips tagged sessions", async () => {
      const refused = await recall(["autotag", "--all-untagged"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^recall: tagging \d+ sessions sends \d+ requests to Pi's default model, for which the provider may charge: add --yes to go ahead\n$/,
      );
      expect(server.requests).toHaveLength(0);

      await recall(["tag", STAGING, "mine"]);
      server.script((request) => ({
        text: JSON.stringify({ tags: ["alpha", "beta", `n${userText(request).length % 97}`] }),
      }));
      const batch = await recall([
        "autotag",
        "--all-untagged",
        "--yes",
        "--json",
        "--model",
        "local/other",
      ]);
      expect(batch.code).toBe(0);
      const lines = jsonLines(batch.stdout);
      const tagged = lines.filter((l) => l.type === "tagged");
      expect(tagged.length).toBeGreaterThan(3);
      expect(tagged.map((l) => l.id)).not.toContain(STAGING);
      expect(lines.at(-1)).toMatchObject({
        type: "summary",
        tagged: tagged.length,
        failed: 0,
        model: "local/other",
      });
      expect(server.requests.every((r) => r.model === "other")).toBe(true);
      // Each session in a session of its own: no earlier session's text in a later request.
      for (const request of server.requests)
        expect(request.messages.filter((m) => m.role === "user")).toHaveLength(1);

      const again = await recall(["autotag", "--all-untagged", "--yes"]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("every session in scope already has tags");
    });

    it("ask and autotag redact secrets in what they send to the model unless told --no-redact", async () => {
      // Made up, in pieces so that no scanner takes it for a leak.
      const token = `${"gh"}p_${"Qw3rTy9Zx7".repeat(4).slice(0, 36)}`;
      const password = "correct horse battery staple";
      const file = join(
        agent.sessionsDir,
        "--home-dev-secrets--",
        `2026-10-05T09-00-00-000Z_0e000001-1111-7222-8333-944445555666.jsonl`,
      );
      mkdirSync(join(file, ".."), { recursive: true });
      const ms = Date.parse("2026-10-05T09:00:00Z");
      writeFileSync(
        file,
        [
          JSON.stringify({
            type: "session",
            version: 3,
            id: "0e000001-1111-7222-8333-944445555666",
            timestamp: new Date(ms).toISOString(),
            cwd: "/home/dev/secrets",
          }),
          JSON.stringify({
            type: "session_info",
            id: "i1",
            parentId: null,
            timestamp: new Date(ms).toISOString(),
            name: `deploy with ${token}`,
          }),
          JSON.stringify({
            type: "message",
            id: "m1",
            parentId: "i1",
            timestamp: new Date(ms).toISOString(),
            message: {
              role: "user",
              content: `the deploy fails; my env has GITHUB_TOKEN=${token} and DB_PASSWORD="${password}"`,
              timestamp: ms,
            },
          }),
          JSON.stringify({
            type: "message",
            id: "m2",
            parentId: "m1",
            timestamp: new Date(ms).toISOString(),
            message: {
              role: "assistant",
              content: [{ type: "text", text: "The deploy fails because the token expired." }],
              provider: "faux",
              model: "faux-1",
              stopReason: "stop",
              timestamp: ms,
            },
          }),
          "",
        ].join("\n"),
      );
      server.script({ text: "The token expired [0]." });
      expect((await recall(["ask", "0e000001", "why", "does", "the", "deploy", "fail"])).code).toBe(
        0,
      );
      server.script({ text: '{"tags": ["deploy", "github", "database"]}' });
      expect((await recall(["autotag", "0e000001", "--dry-run"])).code).toBe(0);
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) {
        const sent = JSON.stringify(request.messages);
        expect(sent).not.toContain(token);
        expect(sent).not.toContain(password);
        expect(sent).toContain("[REDACTED:github-token]");
        expect(sent).toContain("[REDACTED:password]");
      }

      server.requests.length = 0;
      server.script({ text: "The token expired [0]." });
      expect(
        (await recall(["ask", "0e000001", "why", "does", "the", "deploy", "fail", "--no-redact"]))
          .code,
      ).toBe(0);
      server.script({ text: '{"tags": ["deploy", "github", "database"]}' });
      expect((await recall(["autotag", "0e000001", "--dry-run", "--no-redact"])).code).toBe(0);
      for (const request of server.requests)
        expect(JSON.stringify(request.messages)).toContain(token);
    });

    it("--dry-run prints the tags and saves none", async () => {
      server.script({ text: '{"tags": ["alpha", "beta", "gamma"]}' });
      const result = await recall(["autotag", STAGING, "--dry-run"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("#alpha #beta #gamma");
      expect(result.stdout).toContain("(not saved)");
      expect(jsonLines((await recall(["tags", STAGING, "--json"])).stdout)[0]).toMatchObject({
        tags: [],
      });
    });

    it("a provider error fails the session with Pi's message; no pi at all is one clear line", async () => {
      server.script({ status: 500 });
      const failed = await recall(["autotag", STAGING]);
      expect(failed.code).toBe(2);
      expect(failed.stderr).toMatch(/^recall: 01a0f6b1-[0-9a-f-]+: failed: pi: /);

      const missing = await runRecall(["autotag", STAGING], {
        env: { ...env, RECALL_PI: join(agent.root, "no-such-pi") },
        cwd: agent.root,
      });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(
        /^recall: cannot run RECALL_PI \(.*no-such-pi\): not found; install Pi .* or set RECALL_PI to the pi to use\n$/,
      );
      const { RECALL_PI: _, ...withoutPi } = env;
      const notOnPath = await runRecall(["autotag", STAGING], {
        env: { ...withoutPi, PATH: join(agent.root, "empty-bin") },
        cwd: agent.root,
      });
      expect(notOnPath.stderr).toMatch(/^recall: cannot run pi on PATH: not found; install Pi/);

      // A model Pi does not know: one line, and a batch stops at it instead of failing every
      // session.
      const unknown = await recall([
        "autotag",
        "--all-untagged",
        "--yes",
        "--model",
        "nosuch/model",
      ]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^recall: pi: Model "nosuch\/model" not found\b.*\n$/);

      // Pi started by this Node (20), older than Pi needs.
      const oldNode = join(agent.root, "pi-on-old-node");
      writeFileSync(
        oldNode,
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(PI_RUNTIME!.cli)} "$@"\n`,
      );
      chmodSync(oldNode, 0o755);
      const tooOld = await runRecall(["autotag", STAGING], {
        env: { ...env, RECALL_PI: oldNode },
        cwd: agent.root,
      });
      expect(tooOld.code).toBe(2);
      expect(tooOld.stderr).toMatch(
        /^recall: .*pi cannot run on Node 20\.\d+: it needs Node 22\.19 or later; give pi a newer Node/,
      );
    });

    it("Ctrl-C stops after the request under way and keeps what was done (exit 130)", async () => {
      server.script({ text: '{"tags": ["first", "second", "third"]}', delayMs: 1500 });
      const child = spawn(
        process.execPath,
        [RECALL_BIN, "autotag", "--all-untagged", "--yes", "--json"],
        { env, cwd: agent.root, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      const asked = (async () => {
        while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 50));
      })();
      await asked;
      child.kill("SIGINT");
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(130);
      const lines = jsonLines(stdout);
      expect(lines.filter((l) => l.type === "tagged")).toHaveLength(1);
      expect(lines.at(-1)).toMatchObject({ type: "summary", tagged: 1 });
      expect(server.requests).toHaveLength(1);
    });

    it("takes the model from --model, then recall's config, then pi-recall's; a malformed config is an error naming it", async () => {
      server.script({ text: '{"tags": ["alpha", "beta", "gamma"]}' });
      const seedConfig = join(agent.agentDir, "pi-recall", "config.json");
      mkdirSync(join(agent.agentDir, "pi-recall"), { recursive: true });
      writeFileSync(
        seedConfig,
        JSON.stringify({ autoTags: { model: "local/other", minimum: 3, maximum: 4 } }),
      );
      await recall(["autotag", STAGING]);
      expect(server.requests.at(-1)!.model).toBe("other");

      const ownConfig = join(agent.agentDir, "recall", "config.json");
      mkdirSync(join(agent.agentDir, "recall"), { recursive: true });
      writeFileSync(ownConfig, JSON.stringify({ autoTags: { model: "local/tagger" } }));
      await recall(["autotag", STAGING]);
      expect(server.requests.at(-1)!.model).toBe("tagger");

      await recall(["autotag", STAGING, "--model", "local/other"]);
      expect(server.requests.at(-1)!.model).toBe("other");

      // ask: recall's ask.model, else pi-session-recall's file.
      writeFileSync(
        join(agent.agentDir, "pi-session-recall.json"),
        JSON.stringify({ model: "local/other" }),
      );
      await recall(["ask", STAGING, "readiness", "probe"]);
      expect(server.requests.at(-1)!.model).toBe("other");
      writeFileSync(
        ownConfig,
        JSON.stringify({ autoTags: { model: "local/tagger" }, ask: { model: "local/tagger" } }),
      );
      await recall(["ask", STAGING, "readiness", "probe"]);
      expect(server.requests.at(-1)!.model).toBe("tagger");

      writeFileSync(ownConfig, "{ not json");
      const broken = await recall(["autotag", STAGING]);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toBe(
        `recall: ${ownConfig} is not valid JSON (${(() => {
          try {
            JSON.parse("{ not json");
          } catch (e) {
            return (e as Error).message;
          }
        })()})\n`,
      );
    });

    it("ask sends the question with the context messages and prints the answer with the messages it drew on", async () => {
      server.script((request) => ({
        text: `The readiness probe answered 503 on /healthz [${/\[(\d+)\] assistant/.exec(userText(request))?.[1]}].`,
      }));
      const result = await recall([
        "ask",
        STAGING,
        "why",
        "did",
        "the",
        "readiness",
        "probe",
        "fail",
        "--json",
        "--model",
        "local/tagger",
      ]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const [answer] = jsonLines(result.stdout);
      expect(answer).toMatchObject({
        answer: expect.stringContaining("503"),
        model: "local/tagger",
      });
      expect((answer!.messages as unknown[]).length).toBe(1);
      const request = server.requests[0]!;
      expect(systemText(request)).toMatch(/untrusted historical data/);
      expect(userText(request)).toMatch(
        /^Question: why did the readiness probe fail\n\n<session id="01a0f6b1-[^"]+">/,
      );
      expect(request.tools ?? []).toEqual([]);

      const text = await recall(["ask", STAGING, "readiness", "probe"]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /503[\s\S]*\nlocal\/tagger · cites message \d+ of the \d+ sent from session 01a0f6b1/,
      );
    });

    it("ask says which model answered when Pi chose it, and lists only the messages the answer cites", async () => {
      server.script({ text: "It was the readiness probe [3], see also [5, 7]." });
      const result = await recall(["ask", STAGING, "readiness", "probe", "--json"]);
      expect(result.code).toBe(0);
      const [answer] = jsonLines<{
        model: string;
        sent: number;
        sampled: boolean;
        messages: { index: number }[];
      }>(result.stdout);
      // No --model and no configured one: Pi's default, named as the request went out.
      expect(answer!.model).toBe(`local/${server.requests.at(-1)!.model}`);
      const sentIndexes = [...userText(server.requests.at(-1)!).matchAll(/^\[(\d+)\] /gm)].map(
        (m) => Number(m[1]),
      );
      expect(answer!.sent).toBe(sentIndexes.length);
      expect(answer!.sent).toBeGreaterThan(3);
      expect(answer!.messages.map((m) => m.index)).toEqual(
        [3, 5, 7].filter((n) => sentIndexes.includes(n)),
      );
      expect(answer!.sampled).toBe(false);

      server.script({ text: "The excerpt does not say." });
      const none = await recall(["ask", STAGING, "readiness", "probe"]);
      expect(none.code).toBe(0);
      expect(none.stdout).toMatch(
        /\nlocal\/tagger · cites no message of the \d+ sent from session /,
      );
    });

    it("ask with a general question no message holds a word of: sends the start and end of the session, and says so", async () => {
      server.script({ text: "They fixed the staging deploy [0]." });
      const result = await recall([
        "ask",
        STAGING,
        "summarize",
        "what",
        "happened",
        "here",
        "--max-chars",
        "1000",
        "--json",
      ]);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        /^recall: no message of session 01a0f6b1-[0-9a-f-]+ mentions summarize, happened, here: sent its start and end instead \(\d+ messages\)\n$/,
      );
      expect(jsonLines(result.stdout)[0]).toMatchObject({
        sampled: true,
        messages: [{ index: 0 }],
      });
      const prompt = userText(server.requests.at(-1)!);
      const read = jsonLines<{ type: string; index: number; text: string }>(
        (await recall(["read", STAGING, "--json"])).stdout,
      ).filter((l) => l.type === "message");
      // The first message and the last, within the budget.
      expect(prompt).toContain(`[0] user (`);
      expect(prompt).toContain(
        `[${read.at(-1)!.index}] ${(read.at(-1) as unknown as { role: string }).role} (`,
      );
      const sentText = [...prompt.matchAll(/^\[\d+\] \w+ \([^)]*\):\n([\s\S]*?)\n\n/gm)]
        .map((m) => m[1]!)
        .join("");
      expect(sentText.length).toBeLessThanOrEqual(1000);
    });

    it("Pi with no model at all: autotag and ask say Pi's own message, not a path it printed", async () => {
      // The same sessions for recall; for Pi, an agent folder of its own with no models.json.
      const bare = join(agent.root, "bare-agent");
      mkdirSync(bare);
      const pi = join(agent.root, "pi-without-models");
      writeFileSync(
        pi,
        `#!/bin/sh\nPI_CODING_AGENT_DIR=${JSON.stringify(bare)} exec ${JSON.stringify(PI_RUNTIME!.node)} ${JSON.stringify(PI_RUNTIME!.cli)} "$@"\n`,
      );
      chmodSync(pi, 0o755);
      const noModels = { ...env, RECALL_PI: pi };
      for (const args of [
        ["autotag", STAGING],
        ["ask", STAGING, "readiness", "probe"],
        ["autotag", "--all-untagged", "--yes"],
      ]) {
        const result = await runRecall(args, { env: noModels, cwd: agent.root });
        expect(result.code, args.join(" ")).toBe(2);
        expect(result.stderr, args.join(" ")).toMatch(
          /^recall: (01a0f6b1-[0-9a-f-]+: failed: )?pi: No models available\. Use \/login to log into a provider via OAuth or API key\. No API key found for the selected model\.\n/,
        );
      }
      expect(server.requests).toHaveLength(0);
    });

    it("ask shows a model's answer with its control characters visible; --json keeps it exact", async () => {
      const answer = "The probe failed \x1b]0;pwned\x07\x1b[2J\u202e here.";
      server.script({ text: answer });
      const text = await recall(["ask", STAGING, "readiness", "probe", "--model", "local/tagger"]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain("The probe failed ^[]0;pwned^G^[[2J\\u{202e} here.");
      expect(text.stdout).not.toContain("\x1b");
      server.script({ text: answer });
      const json = await recall([
        "ask",
        STAGING,
        "readiness",
        "probe",
        "--model",
        "local/tagger",
        "--json",
      ]);
      expect(jsonLines(json.stdout)[0]!.answer).toBe(answer);
    });
  },
);
