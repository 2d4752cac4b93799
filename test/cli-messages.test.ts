/**
 * What the CLI says in the small cases (issue 41, "Smaller"): `remote test` without a name, `tag`
 * without a tag, a remote whose answer is no JSON, and a push summary's counts of one.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summaryLine } from "../src/cli/commands/push.js";
import type { PushReport } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { runRecall } from "./helpers/run-cli.js";

const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

let agent: AgentDir;
/** A web server, not OpenSearch: 200 and a page of HTML for every request. */
let web: Server;
let webUrl: string;

beforeAll(async () => {
  agent = makeAgentDir();
  web = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end("<html><body>Sign in</body></html>");
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => web.close(resolve));
  agent.cleanup();
});

const recall = (...args: string[]) => runRecall(args, { env: agent.env, cwd: agent.root });

describe("the CLI's short messages", () => {
  it("recall tag with a session and no tag says what tag takes", async () => {
    const tagged = await recall("tag", S1_ID);
    expect(tagged).toMatchObject({ code: 2, stdout: "" });
    expect(tagged.stderr).toBe(
      "recall: recall tag needs more arguments: recall tag [options] <session> <tag…> (`recall tag --help` shows the usage)\n",
    );
  });

  it("remote test without a name tests the only remote, as push and pull do; a 200 answer that is no JSON is said to be no OpenSearch", async () => {
    const none = await recall("remote", "test");
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^recall: no remote is configured in .*; add one with `recall remote add NAME URL`\n$/,
    );
    expect((await recall("remote", "add", "web", webUrl)).code).toBe(0);
    const only = await recall("remote", "test");
    expect(only.code).toBe(2);
    expect(only.stdout).toMatch(
      new RegExp(
        `^FAIL {2}reachable: remote web \\(${webUrl.replaceAll(".", "\\.")}\\) answered with a body that is not OpenSearch's JSON while connecting: its URL names no OpenSearch`,
      ),
    );
    expect(only.stdout).not.toMatch(/unreachable/);
    expect((await recall("remote", "add", "other", "http://127.0.0.1:1")).code).toBe(0);
    const several = await recall("remote", "test");
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/^recall: there are several remotes.*other, web|web, other/);
    expect((await recall("remote", "test", "web", "other")).stderr).toBe(
      "recall: recall remote test takes the remote's name, or none for the only remote\n",
    );
  });
});

describe("a push's summary", () => {
  const report: PushReport = {
    remote: "team",
    sessions: 1,
    unchanged: 1,
    documents: 2,
    bytes: 2048,
    files: 1,
    fileBytes: 1024,
    deleted: 1,
    removed: 1,
    forgotten: 1,
    redactions: {},
    fileRedactions: {},
    redactedIn: {},
    failed: [],
    replaced: [],
    dryRun: false,
  };

  it("counts one of a thing in the singular", () => {
    expect(summaryLine(report)).toBe(
      "pushed 2 messages of 1 session and 1 session file (1.0 kB, no secret redacted in them) to team (2.0 kB, no secret redacted), 1 replaced document deleted, 1 deleted session removed, 1 forgotten session not sent; 1 session unchanged",
    );
    expect(
      summaryLine({
        ...report,
        sessions: 3,
        documents: 1,
        unchanged: 0,
        files: 0,
        deleted: 0,
        removed: 0,
        forgotten: 0,
      }),
    ).toBe(
      "pushed 1 message of 3 sessions to team (2.0 kB, no secret redacted); 0 sessions unchanged",
    );
  });
});
