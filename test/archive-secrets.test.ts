/**
 * Secrets on a real OpenSearch (scripts/opensearch.sh): sessions holding every secret shape of
 * test/helpers/secret-shapes.ts in every place, pushed through the CLI with every kind of content
 * and kept files; `recall push --check-secrets` says what it would redact where, and then nothing
 * the archive holds — documents or kept files — and nothing `recall search --remote` hands back
 * holds a secret.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import {
  engineApi,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
} from "./helpers/opensearch.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";
import { sessionId, SHAPES, writeSessions } from "./helpers/secret-shapes.js";

const INDEX = "recall-secrets-test";

describe.skipIf(openSearchMissing)(needsOpenSearch("redaction on a real OpenSearch"), () => {
  let url = "";
  let agent: AgentDir;
  const recall = (args: string[]) => runRecall(args, { env: agent.env, cwd: agent.root });
  const parts = (secret: string) => secret.split("\n").filter((line) => line.length >= 6);

  beforeAll(async () => {
    url = await openSearchUrl();
    agent = makeAgentDir({ withFixtures: false });
    writeSessions(
      agent.sessionsDir,
      agent.root,
      SHAPES.map((s) => s.text),
    );
    expect(
      (
        await recall([
          "remote",
          "add",
          "team",
          url,
          "--index",
          INDEX,
          "--machine",
          "laptop",
          "--user",
          "ada",
        ])
      ).code,
    ).toBe(0);
    const configFile = join(agent.agentDir, "recall", "config.json");
    const config = JSON.parse(readFileSync(configFile, "utf8"));
    config.remotes.team.content = ["conversation", "calls", "outputs", "thinking"];
    config.remotes.team.keepFiles = true;
    writeFileSync(configFile, JSON.stringify(config));
  }, 300_000);
  afterAll(() => agent?.cleanup());

  it("--check-secrets names each kind and place, and each session, before anything is sent", async () => {
    const human = await recall(["push", "--check-secrets"]);
    expect(human.stderr).toBe("");
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      /^a push to team would redact \d+ secrets in 33 of 33 sessions \(nothing was sent\)\n/,
    );
    expect(human.stdout).toMatch(/^ {2}github-token +message +\d+ +\d+$/m);
    for (const secret of SHAPES.flatMap((s) => parts(s.secret)))
      expect(human.stdout).not.toContain(secret);

    const lines = jsonLines((await recall(["push", "--check-secrets", "--json"])).stdout) as any[];
    const sessions = lines.filter((l) => l.type === "secrets");
    expect(sessions.map((s) => s.session_id).sort()).toEqual(
      SHAPES.map((_, n) => sessionId(n)).sort(),
    );
    for (const session of sessions) {
      const places = new Set(session.secrets.map((f: { place: string }) => f.place));
      for (const place of ["message", "tool-call", "tool-output", "thinking", "kept-file"])
        expect(places, `${session.session_id} ${place}`).toContain(place);
    }
    const summary = lines.at(-1)!;
    expect(summary).toMatchObject({ type: "summary", dryRun: true });
    expect(Object.keys(summary.redactedIn)).toEqual(
      expect.arrayContaining([
        "message",
        "tool-call",
        "tool-output",
        "thinking",
        "session-name",
        "folder",
        "kept-file",
      ]),
    );
    // Nothing was sent: the remote has no index yet.
    expect((await fetch(`${url}/${INDEX}`, { method: "HEAD" })).status).toBe(404);
  });

  it("pushes, and the archive holds none of the secrets: not in a document, not in a kept file, not in a search's hits", async () => {
    const pushed = await recall(["push", "--json"]);
    expect(pushed.stderr).toBe("");
    expect(pushed.code).toBe(0);
    expect(jsonLines(pushed.stdout).at(-1)).toMatchObject({
      type: "summary",
      sessions: 33,
      files: 33,
    });

    await engineApi(url, `/${INDEX}*/_refresh`, { method: "POST" });
    const all = await engineApi(url, `/${INDEX}*/_search`, {
      body: { size: 2000, query: { match_all: {} } },
    });
    const stored = JSON.stringify(all.hits.hits.map((h: { _source: unknown }) => h._source));
    expect(all.hits.hits.length).toBeGreaterThan(33 * 5);
    const leaks = SHAPES.filter((s) =>
      parts(s.secret).some(
        (part) => stored.includes(part) || stored.includes(JSON.stringify(part).slice(1, -1)),
      ),
    );
    expect(leaks.map((s) => s.name)).toEqual([]);
    expect(stored).toContain("[REDACTED:");

    // Every session's hits, and a search for each secret itself.
    const everything = await recall([
      "search",
      "--remote",
      "team",
      "please look at this",
      "--json",
      "--content",
      "all",
      "-n",
      "100",
    ]);
    expect(everything.code).toBe(0);
    expect(jsonLines(everything.stdout).length).toBeGreaterThanOrEqual(33);
    for (const shape of SHAPES) {
      const found = await recall([
        "search",
        "--remote",
        "team",
        shape.secret.split(/\s+/)[0]!.slice(0, 60),
        "--json",
        "--content",
        "all",
      ]);
      expect([0, 1], `${shape.name}: ${found.stderr}`).toContain(found.code);
      for (const part of parts(shape.secret)) {
        expect(found.stdout, shape.name).not.toContain(part);
        expect(everything.stdout, shape.name).not.toContain(part);
      }
    }
  }, 600_000);
});
