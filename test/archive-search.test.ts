/**
 * Searching and reading the archive against a real OpenSearch (scripts/opensearch.sh): the
 * fixture sessions pushed by one user, one session pushed by another from another machine, then
 * `recall search --remote` beside the local search (the same records, one hit per session, the
 * same best session), its filters, snippets made safe for a terminal, `recall read --remote`, and
 * a remote that is unreachable, refuses the credentials or is too slow (through a real proxy).
 */
import { appendFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { startArchiveProxy } from "./helpers/archive-proxy.js";
import { FIXTURE_FILES, FIXTURE_SESSIONS_DIR, userMessage } from "./helpers/fixture-files.js";
import { needsOpenSearch, openSearchMissing, openSearchUrl } from "./helpers/opensearch.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const INDEX = "recall-search-test";
let url = "";
let ada: AgentDir;
let bob: AgentDir;
const BOB_SESSION = "0b0b0b0b-1111-7222-8333-944445555666";

const recall = (args: string[], agent = ada) => runRecall(args, { env: agent.env });
/** The folder of an agent's clone of the shared repository. */
const cloneOf = (agent: AgentDir) => join(realpathSync(agent.root), "src", "shop");

/** Sets a remote's settings in an agent's config file as a user would edit it. */
function configure(agent: AgentDir, name: string, settings: Record<string, unknown>): void {
  const file = join(agent.agentDir, "recall", "config.json");
  const config = JSON.parse(readFileSync(file, "utf8")) as { remotes: Record<string, unknown> };
  config.remotes[name] = settings;
  writeFileSync(file, JSON.stringify(config));
}

describe.skipIf(openSearchMissing)(
  needsOpenSearch("searching and reading the archive on a real OpenSearch"),
  () => {
    beforeAll(async () => {
      url = await openSearchUrl();
      ada = makeAgentDir();
      bob = makeAgentDir({ withFixtures: false });
      // Bob's one session, on his machine, with a terminal escape in its text.
      const folder = join(bob.sessionsDir, "--home-bob-shop-api--");
      mkdirSync(folder, { recursive: true });
      const ms = Date.parse("2026-10-05T08:00:00Z");
      const header = JSON.stringify({
        type: "session",
        version: 3,
        id: BOB_SESSION,
        timestamp: new Date(ms).toISOString(),
        cwd: "/home/bob/shop-api",
      });
      writeFileSync(
        join(folder, `2026-10-05T08-00-00-000Z_${BOB_SESSION}.jsonl`),
        `${header}\n${userMessage("b0000001", "The quokka deploy \u001b]0;owned\u0007 printed \u001b[31mred\u001b[0m on the staging cluster", ms)}${userMessage("b0000002", "second quokka note", ms + 1000)}`,
      );
      // A session of each in their own clone of one repository, named by ssh on one machine and by
      // https on the other.
      for (const [agent, url] of [
        [ada, "git@github.com:acme/shop.git"],
        [bob, "https://github.com/Acme/shop"],
      ] as const) {
        const clone = cloneOf(agent);
        mkdirSync(join(clone, ".git"), { recursive: true });
        writeFileSync(join(clone, ".git", "config"), `[remote "origin"]\n\turl = ${url}\n`);
        const id =
          agent === ada
            ? "0ada0000-1111-7222-8333-944445555666"
            : "0b0b0000-1111-7222-8333-944445555666";
        const at = Date.parse("2026-10-06T08:00:00Z");
        mkdirSync(join(agent.sessionsDir, "--clone--"), { recursive: true });
        const header = JSON.stringify({
          type: "session",
          version: 3,
          id,
          timestamp: new Date(at).toISOString(),
          cwd: clone,
        });
        writeFileSync(
          join(agent.sessionsDir, "--clone--", `2026-10-06T08-00-00-000Z_${id}.jsonl`),
          `${header}\n${userMessage(`${id.slice(0, 4)}0001`, "the zebrafish cache was stale", at)}`,
        );
      }
      for (const [agent, user, machine] of [
        [ada, "ada", "laptop"],
        [bob, "bob", "desktop"],
      ] as const) {
        const added = await recall(
          ["remote", "add", "team", url, "--index", INDEX, "--machine", machine, "--user", user],
          agent,
        );
        expect(added.stderr).toBe("");
      }
      // Ada's tags go with her sessions.
      expect((await recall(["index"])).code).toBe(0);
      expect((await recall(["tag", "01a0f6b1", "k8s"])).code).toBe(0);
      for (const agent of [ada, bob]) {
        const pushed = await recall(["push", "--remote", "team"], agent);
        expect(pushed.stderr).toBe("");
        expect(pushed.code).toBe(0);
      }
      await fetch(`${url}/${INDEX}/_refresh`, { method: "POST" });
    }, 300_000);
    afterAll(() => {
      ada?.cleanup();
      bob?.cleanup();
    });

    it("gives the local search's records, one per session, the same best session, each with its origin", async () => {
      for (const query of [
        "staging deploy",
        "readiness probe",
        "helm kustomize",
        "nginx ingress canary",
        '"rollout restart"',
      ]) {
        const local = jsonLines((await recall(["search", "--json", query])).stdout);
        const remote = await recall([
          "search",
          "--remote",
          "team",
          "--json",
          "--user",
          "ada",
          query,
        ]);
        expect(remote.stderr, query).toBe("");
        const hits = jsonLines(remote.stdout);
        expect(hits.length, query).toBeGreaterThan(0);
        expect(new Set(hits.map((h) => h.id)).size, query).toBe(hits.length);
        expect(hits[0]!.id, query).toBe(local[0]!.id);
        expect(Object.keys(hits[0]!).sort(), query).toEqual(
          [...Object.keys(local[0]!), "origin"].sort(),
        );
        expect(hits[0]).toMatchObject({
          path: "",
          origin: { remote: "team", machine: "laptop", user: "ada" },
        });
      }
      const [hit] = jsonLines(
        (await recall(["search", "--remote", "team", "--json", "--limit", "1", "staging deploy"]))
          .stdout,
      );
      expect(hit).toMatchObject({
        cwd: "/home/dev/shop-api",
        tags: ["k8s"],
        message: { kind: "conversation", role: expect.any(String), entryId: expect.any(String) },
      });
      expect(hit!.messageCount).toBeGreaterThan(2);
      expect(hit!.firstMessage).toMatch(/^The staging deploy is broken/);
      // The spans mark the query's words in the snippet, by bytes.
      const snippet = Buffer.from(hit!.snippet as string);
      const marked = (hit!.spans as [number, number][]).map(([s, e]) =>
        snippet.subarray(s, e).toString().toLowerCase(),
      );
      expect(marked.length).toBeGreaterThan(0);
      expect(marked.every((w) => w === "staging" || w === "deploy")).toBe(true);
    });

    it("filters by #tag and -#tag, user, machine, time and folder", async () => {
      const ids = async (args: string[]) =>
        jsonLines((await recall(["search", "--remote", "team", "--json", ...args])).stdout).map(
          (h) => h.id,
        );
      expect(await ids(["#k8s"])).toEqual(["01a0f6b1-2680-79e3-a1fa-30b6f0582ef5"]);
      expect(await ids(["deploy #k8s"])).toEqual(["01a0f6b1-2680-79e3-a1fa-30b6f0582ef5"]);
      expect(await ids(["staging -#k8s"])).not.toContain("01a0f6b1-2680-79e3-a1fa-30b6f0582ef5");
      expect(await ids(["--user", "bob", "staging"])).toEqual([BOB_SESSION]);
      expect(await ids(["--machine", "desktop", "quokka"])).toEqual([BOB_SESSION]);
      expect(await ids(["--machine", "laptop", "quokka"])).toEqual([]);
      expect(await ids(["--since", "2026-10-05", "staging"])).toEqual([BOB_SESSION]);
      expect(await ids(["--until", "2026-10-04", "quokka"])).toEqual([]);
      expect(await ids(["--cwd", "/home/bob/shop-api", "staging"])).toEqual([BOB_SESSION]);
      // Tool calls were not pushed (the remote takes the conversation): nothing to find in them.
      expect(await ids(["--content", "calls", "kubectl"])).toEqual([]);
      // A session tagged after its push is sent again with its tags.
      expect((await recall(["tag", "01a0f6e8", "helm-charts"])).code).toBe(0);
      expect(
        jsonLines((await recall(["push", "--remote", "team", "--json"])).stdout)[0],
      ).toMatchObject({ sessions: 1, deleted: 0 });
      await fetch(`${url}/${INDEX}/_refresh`, { method: "POST" });
      expect(await ids(["#helm-charts"])).toEqual(["01a0f6e8-1500-7a6b-ad20-694247f75ec3"]);
      // Tag words are searched as text, cut as the local index cuts them.
      expect((await ids(["charts"]))[0]).toBe("01a0f6e8-1500-7a6b-ad20-694247f75ec3");
      const none = await recall(["search", "--remote", "team", "--user", "carol", "staging"]);
      expect(none.code).toBe(1);
      expect(none.stderr).toBe('recall: no session in remote team matches "staging"\n');
    });

    it("--repo finds the sessions of every clone of the current folder's repository, pushed from any machine", async () => {
      const remote = await runRecall(
        ["search", "--remote", "team", "--repo", "--json", "zebrafish"],
        { env: ada.env, cwd: cloneOf(ada) },
      );
      expect(remote.stderr).toBe("");
      const hits = jsonLines<{ project: string; cwd: string; origin: { user: string } }>(
        remote.stdout,
      );
      expect(hits.map((hit) => hit.origin.user).sort()).toEqual(["ada", "bob"]);
      expect(new Set(hits.map((hit) => hit.project))).toEqual(new Set(["github.com/acme/shop"]));
      expect(new Set(hits.map((hit) => hit.cwd))).toEqual(new Set([cloneOf(ada), cloneOf(bob)]));
      // Locally, only this machine's clone holds a session.
      const local = await runRecall(["search", "--repo", "--json", "zebrafish"], {
        env: ada.env,
        cwd: cloneOf(ada),
      });
      expect(jsonLines<{ cwd: string }>(local.stdout).map((hit) => hit.cwd)).toEqual([
        cloneOf(ada),
      ]);
      const elsewhere = await runRecall(
        ["search", "--remote", "team", "--repo", "--json", "zebrafish"],
        { env: ada.env, cwd: ada.root },
      );
      expect(elsewhere.code).toBe(1);
    });

    it("says where each session lives, and shows its text safely on a terminal", async () => {
      const shown = await recall(["search", "--remote", "team", "--color", "always", "quokka"]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain("in remote team, pushed by bob from desktop");
      // Only the marks recall paints are escapes; the session's own are shown visibly.
      expect(shown.stdout.replace(/\u001b\[[0-9;]*m/g, "")).not.toMatch(
        /[\u0000-\u0008\u000b-\u001f\u007f]/,
      );
      expect(shown.stdout).not.toContain("\u001b]0;owned");
    });

    it("refuses what only a local search does, and --user without --remote", async () => {
      for (const args of [["--file", "x.ts"], ["--prefix"], ["--exact"]]) {
        const refused = await recall(["search", "--remote", "team", ...args, "deploy"]);
        expect(refused.code, args[0]).toBe(2);
        expect(refused.stderr, args[0]).toMatch(
          new RegExp(
            `^recall: ${args[0]} searches this machine's index: it does not go with --remote\\n$`,
          ),
        );
      }
      const user = await recall(["search", "--user", "bob", "deploy"]);
      expect(user.code).toBe(2);
      expect(user.stderr).toBe(
        "recall: --user goes with --remote: this machine's sessions are all yours\n",
      );
    });

    it("read --remote pages through an archived session with local read's records and its origin", async () => {
      const local = jsonLines((await recall(["read", "--json", "01a0f6b1"])).stdout);
      const first = await recall([
        "read",
        "--remote",
        "team",
        "--json",
        "--max-chars",
        "300",
        "01a0f6b1",
      ]);
      expect(first.stderr).toBe("");
      const lines = jsonLines(first.stdout);
      const page = lines.at(-1)!;
      expect(Object.keys(page).sort()).toEqual([...Object.keys(local.at(-1)!), "origin"].sort());
      expect(page).toMatchObject({
        type: "page",
        id: "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5",
        path: "",
        from: 0,
        origin: { remote: "team", machine: "laptop", user: "ada" },
      });
      expect(page.nextCursor).toEqual(expect.any(String));
      const messages: Record<string, unknown>[] = lines.slice(0, -1);
      let cursor = page.nextCursor as string | null;
      while (cursor) {
        const next = jsonLines(
          (
            await recall([
              "read",
              "--remote",
              "team",
              "--json",
              "--max-chars",
              "300",
              "01a0f6b1",
              "--cursor",
              cursor,
            ])
          ).stdout,
        );
        messages.push(...next.slice(0, -1));
        cursor = next.at(-1)!.nextCursor as string | null;
      }
      // The archive holds the index's messages (same-role messages in a row joined): every text of
      // the local read, in order.
      expect(messages.length).toBe(page.total);
      expect(messages.map((m) => m.index)).toEqual(messages.map((_, i) => i));
      const archivedText = messages.map((m) => m.text).join("\n");
      let at = 0;
      for (const m of local.slice(0, -1)) {
        const found = archivedText.indexOf(m.text as string, at);
        expect(found, m.text as string).toBeGreaterThanOrEqual(at);
        at = found;
      }

      const human = await recall(["read", "--remote", "team", "0b0b0b0b"]);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain("in remote team, pushed by bob from desktop");
      expect(human.stdout).not.toContain("\u001b");
      const ambiguous = await recall(["read", "--remote", "team", "01a0"]);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toMatch(/^recall: 01a0 names several sessions in remote team: /);
      const missing = await recall(["read", "--remote", "team", "ffffffff"]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe("recall: no session ffffffff in remote team\n");
    });

    it("an unreachable remote, refused credentials or a remote too slow: one line, exit 2; local search untouched", async () => {
      configure(ada, "gone", { url: "http://127.0.0.1:1", index: INDEX });
      const gone = await recall(["search", "--remote", "gone", "deploy"]);
      expect(gone.code).toBe(2);
      expect(gone.stdout).toBe("");
      expect(gone.stderr).toMatch(
        /^recall: remote gone \(http:\/\/127\.0\.0\.1:1\) is unreachable while searching \(10 s timeout\): [^\n]+\n$/,
      );
      const goneRead = await recall(["read", "--remote", "gone", "01a0f6b1"]);
      expect(goneRead.code).toBe(2);
      expect(goneRead.stderr).toMatch(
        /^recall: remote gone .* is unreachable while reading a session/,
      );

      const guarded = await startArchiveProxy(url, { basicAuth: "ada:right-password" });
      const slow = await startArchiveProxy(url, { hang: true });
      try {
        configure(ada, "guarded", { url: guarded.url, index: INDEX });
        const env = {
          ...ada.env,
          RECALL_REMOTE_GUARDED_USERNAME: "ada",
          RECALL_REMOTE_GUARDED_PASSWORD: "wrong-password",
        };
        const refused = await runRecall(["search", "--remote", "guarded", "deploy"], { env });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toBe(
          `recall: remote guarded (${guarded.url}) refused the credentials while searching (HTTP 401)\n`,
        );
        expect(refused.stderr).not.toContain("wrong-password");
        const accepted = await runRecall(["search", "--remote", "guarded", "--json", "staging"], {
          env: { ...env, RECALL_REMOTE_GUARDED_PASSWORD: "right-password" },
        });
        expect(accepted.stderr).toBe("");
        expect(jsonLines(accepted.stdout).length).toBeGreaterThan(1);

        configure(ada, "slow", { url: slow.url, index: INDEX, timeout: 1 });
        const waited = await recall(["search", "--remote", "slow", "deploy"]);
        expect(waited.code).toBe(2);
        expect(waited.stderr).toBe(
          `recall: remote slow (${slow.url}) did not answer within 1 s while searching\n`,
        );
      } finally {
        await guarded.close();
        await slow.close();
      }
      // Remotes that do not answer change nothing for a local search.
      const local = await recall(["search", "--json", "staging deploy"]);
      expect(local.code).toBe(0);
      expect(local.stderr).toBe("");
    });

    it("a push through an overloaded remote sends again only the refused items; a refused document counts nothing as pushed", async () => {
      const carol = makeAgentDir();
      const retryIndex = "recall-retry-test";
      const count = async () => {
        await fetch(`${url}/${retryIndex}/_refresh`, { method: "POST" });
        return ((await (await fetch(`${url}/${retryIndex}/_count`)).json()) as { count: number })
          .count;
      };
      // The first bulk request: its first 5 items refused with 429, never reaching the engine.
      const proxy = await startArchiveProxy(url, {
        rejectBulks: { requests: 1, items: 5, status: 429 },
      });
      try {
        expect(
          (await recall(["remote", "add", "busy", proxy.url, "--index", retryIndex], carol)).code,
        ).toBe(0);
        const pushed = await recall(["push", "--remote", "busy", "--json"], carol);
        expect(pushed.stderr).toBe("");
        expect(pushed.code).toBe(0);
        const sent = jsonLines(pushed.stdout)[0]!.messages as number;
        expect(sent).toBeGreaterThan(10);
        // With each session's holder record (holders.ts).
        await fetch(`${url}/${retryIndex}-holders/_refresh`, { method: "POST" });
        const holders = (
          (await (await fetch(`${url}/${retryIndex}-holders/_count`)).json()) as { count: number }
        ).count;
        expect(holders).toBeGreaterThan(5);
        expect(proxy.bulkActions).toEqual([sent + holders, 5]);
        expect(await count()).toBe(sent);

        // A document refused for good: the push fails, and the next one sends it again.
        const file = join(carol.sessionsDir, FIXTURE_FILES.s1.replace(FIXTURE_SESSIONS_DIR, ""));
        appendFileSync(
          file,
          userMessage(
            "cc000001",
            "one more question about the quokka",
            Date.parse("2026-10-01T09:10:00Z"),
          ),
        );
        proxy.behaviour.rejectBulks = { requests: 1, items: 1, status: 400 };
        const refused = await recall(["push", "--remote", "busy", "--json"], carol);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toMatch(
          /^recall: remote busy refused document 01a0f6b1-2680-79e3-a1fa-30b6f0582ef5:[0-9a-f]{8} \(HTTP 400\): refused by the test proxy \(400\)\n$/,
        );
        // The engine took the item that was not refused; the file is not counted as pushed all the
        // same.
        expect(await count()).toBe(sent + 1);
        const again = await recall(["push", "--remote", "busy", "--json"], carol);
        expect(again.code).toBe(0);
        // The message it resumes from, and the new one: what the refused push carried (with the
        // session's holder record).
        expect(jsonLines(again.stdout)[0]).toMatchObject({
          sessions: 1,
          messages: proxy.bulkActions.at(-2)! - 1,
        });
        expect(proxy.bulkActions.at(-1)).toBe(proxy.bulkActions.at(-2));
        expect(await count()).toBe(sent + 1);
      } finally {
        await proxy.close();
        carol.cleanup();
      }
    });
  },
);
