/**
 * What an archive holds is untrusted, against a real OpenSearch (scripts/opensearch.sh): anyone
 * who may write its alias may put documents there that no push writes. Crafted kept files,
 * written straight into `<index>-files` with the engine's REST API, are refused by `recall pull`
 * with one line and exit 2, and nothing is written anywhere (a session id or file name climbing
 * out of the sessions folder, a folder with `..`, a header naming another session or folder, a
 * Pi folder that is a link out of the sessions folder, bad part numbers); well-formed ones of
 * other shapes Pi writes are pulled. Crafted messages never reach a page or a hit of
 * `read --remote` and `search --remote`, and do not stop the others.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { userMessage } from "./helpers/fixture-files.js";
import {
  engineApi,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
} from "./helpers/opensearch.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const INDEX = "recall-untrusted-test";
const FILES = `${INDEX}-files`;
const AT = Date.parse("2026-10-07T00:00:00Z");
const STAMP = "2026-10-07T00-00-00-000Z";
const FOLDER = "/home/eve/app";

let url = "";
let desktop: AgentDir;

const api = (path: string, init?: { method?: string; body?: unknown }) =>
  engineApi(url, path, init);
const onDesktop = (args: string[]) => runRecall(args, { env: desktop.env });
/** A session id of its own for each crafted document. */
const idOf = (n: number) => `e0000000-0000-7000-8000-${String(n).padStart(12, "0")}`;

/** A session file's text: its header (with `header`'s fields instead), then one message. */
function sessionText(id: string, header: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(AT).toISOString(), cwd: FOLDER, ...header })}\n${userMessage("e0000001", "the pelican report", AT + 1000)}`;
}

/** Part 0 of a kept file as a push writes it, with `fields` instead. */
function keptFile(
  id: string,
  fields: Record<string, unknown> = {},
  content = sessionText(id),
): Record<string, unknown> {
  return {
    session_id: id,
    file_name: `${STAMP}_${id}.jsonl`,
    folder: FOLDER,
    project: FOLDER,
    machine: "eve-box",
    user: "eve",
    session_created: AT,
    part: 0,
    from: 0,
    end: Buffer.byteLength(content),
    generation: "0123456789abcdef",
    content,
    bytes: Buffer.byteLength(content),
    redactions: 0,
    ...fields,
  };
}

async function put(index: string, id: string, document: Record<string, unknown>): Promise<void> {
  const answer = await api(`/${index}/_doc/${encodeURIComponent(id)}?refresh=true`, {
    method: "PUT",
    body: document,
  });
  expect(answer.result, JSON.stringify(answer)).toMatch(/created|updated/);
}

/**
 * Every path under the desktop's test folder (its sessions, its agent folder and the folders beside
 * them), with its size.
 */
function everything(dir = desktop.root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stats = lstatSync(path);
    return stats.isDirectory() ? [`${path}/`, ...everything(path)] : [`${path} ${stats.size}`];
  });
}

describe.skipIf(openSearchMissing)(
  needsOpenSearch("an archive's crafted documents, against a real OpenSearch"),
  () => {
    beforeAll(async () => {
      url = await openSearchUrl();
      desktop = makeAgentDir({ withFixtures: false });
      // Where the crafted names would lead, made so that a write there would succeed.
      for (const beside of ["outside", "tmp"])
        mkdirSync(join(desktop.agentDir, beside), { recursive: true });
      const added = await runRecall(
        [
          "remote",
          "add",
          "team",
          url,
          "--index",
          INDEX,
          "--keep-files",
          "--machine",
          "desktop",
          "--user",
          "ada",
        ],
        { env: desktop.env },
      );
      expect(added.stderr).toBe("");
      // Makes the index of messages and that of kept files, as a first push would.
      expect((await onDesktop(["remote", "test", "team"])).code).toBe(0);
    }, 300_000);
    afterAll(() => {
      desktop?.cleanup();
      rmSync("/tmp/PWNED1.jsonl", { force: true });
    });

    it("pulls well-formed kept files of the shapes Pi writes: a custom session id, a file not named as Pi names it", async () => {
      const custom = "eve-release-notes";
      await put(FILES, custom, keptFile(custom));
      const renamed = idOf(1);
      await put(FILES, renamed, keptFile(renamed, { file_name: "notes.jsonl" }));
      const folder = join(desktop.sessionsDir, "--home-eve-app--");
      for (const [id, name] of [
        [custom, `${STAMP}_${custom}.jsonl`],
        [renamed, `${STAMP}_${renamed}.jsonl`],
      ]) {
        const pulled = await onDesktop(["pull", "--remote", "team", id!, "--json"]);
        expect(pulled.stderr).toBe("");
        expect(jsonLines(pulled.stdout)[0]).toMatchObject({
          id,
          path: join(folder, name!),
          cwd: FOLDER,
          alreadyHere: false,
        });
        expect(readFileSync(join(folder, name!), "utf8")).toBe(sessionText(id!));
        rmSync(join(folder, name!));
      }
      rmSync(folder, { recursive: true });
    });

    it("refuses every crafted kept file with one line and exit 2, and writes nothing anywhere", async () => {
      const outside = join(desktop.agentDir, "outside");
      // A Pi folder here that is a link out of the sessions folder.
      symlinkSync(outside, join(desktop.sessionsDir, "--home-eve-linked--"));
      const crafted: [string, (id: string) => Record<string, unknown>, RegExp][] = [
        [
          "the issue's session id",
          () => keptFile("../../../../tmp/PWNED1", { file_name: "x/y.jsonl" }),
          /its session id is not one Pi gives/,
        ],
        [
          "a session id climbing out",
          () => keptFile("../../../../outside/PWNED1"),
          /its session id is not one Pi gives/,
        ],
        [
          "a session id not the one it is stored under",
          () => keptFile(idOf(99)),
          /its session id is not the id it is stored under/,
        ],
        [
          "a file name with a slash",
          (id) => keptFile(id, { file_name: `../../outside/${STAMP}_${id}.jsonl` }),
          /its file name is not a plain file name/,
        ],
        [
          "a file name ..",
          (id) => keptFile(id, { file_name: ".." }),
          /its file name is not a plain file name/,
        ],
        [
          "an absolute file name",
          (id) => keptFile(id, { file_name: join(outside, "PWNED3.jsonl") }),
          /its file name is not a plain file name/,
        ],
        [
          "a folder with ..",
          (id) =>
            keptFile(
              id,
              { folder: "/home/eve/app/../../../etc" },
              sessionText(id, { cwd: "/home/eve/app/../../../etc" }),
            ),
          /its folder is not an absolute, normalized path/,
        ],
        [
          "a relative folder",
          (id) =>
            keptFile(id, { folder: "home/eve/app" }, sessionText(id, { cwd: "home/eve/app" })),
          /its folder is not an absolute, normalized path/,
        ],
        [
          "a header naming another session",
          (id) => keptFile(id, {}, sessionText(idOf(98))),
          /its header names another session/,
        ],
        [
          "a header naming another folder",
          (id) => keptFile(id, {}, sessionText(id, { cwd: "/home/mallory" })),
          /its header names another folder/,
        ],
        [
          "content that does not open with a header",
          (id) => keptFile(id, {}, userMessage("e0000001", "no header", AT)),
          /its first line is not a session header/,
        ],
        [
          "a part 0 numbered 3",
          (id) => keptFile(id, { part: 3 }),
          /its part numbers are not those of a file's start/,
        ],
        [
          "a part 0 from byte 5",
          (id) => keptFile(id, { from: 5 }),
          /its part numbers are not those of a file's start/,
        ],
        [
          "a part 0 ending before it starts",
          (id) => keptFile(id, { end: -1 }),
          /its part numbers are not those of a file's start/,
        ],
        [
          "a folder whose Pi folder here is a link out",
          (id) =>
            keptFile(
              id,
              { folder: "/home/eve/linked", project: "/home/eve/linked" },
              sessionText(id, { cwd: "/home/eve/linked" }),
            ),
          /leads out of the sessions folder/,
        ],
      ];
      // Parts after a sound part 0 that follow on from it but are not parts a push writes.
      const following = (id: string, fields: Record<string, unknown>) => {
        const first = keptFile(id);
        const from = first.end as number;
        return { ...first, part: 1, from, end: from + 6, content: "extra\n", ...fields };
      };
      const parts: [string, Record<string, unknown>][] = [
        ["a part 1 numbered 7", { part: 7 }],
        ["a part 1 ending before it starts", { end: 3 }],
        ["a part 1 of another session", { session_id: idOf(97) }],
      ];
      // Each shape on its own (soft: every one that fails is reported), nothing written by any.
      let n = 10;
      for (const [what, make, reason] of crafted) {
        const id = idOf(n++);
        await put(FILES, id, make(id));
        const before = everything();
        const pulled = await onDesktop(["pull", "--remote", "team", id]);
        expect.soft(pulled.code, what).toBe(2);
        expect.soft(pulled.stdout, what).toBe("");
        expect.soft(pulled.stderr, what).toMatch(/^recall: [^\n]+\n$/);
        expect.soft(pulled.stderr, what).toMatch(reason);
        expect.soft(everything(), what).toEqual(before);
      }
      for (const [what, fields] of parts) {
        const id = idOf(n++);
        await put(FILES, id, keptFile(id));
        await put(FILES, `${id}:1`, following(id, fields));
        const before = everything();
        const pulled = await onDesktop(["pull", "--remote", "team", id]);
        expect.soft(pulled.code, what).toBe(2);
        expect
          .soft(pulled.stderr, what)
          .toMatch(
            new RegExp(
              `^recall: remote team keeps session ${id} as no push would \\(its part 1 is not one a push writes\\): nothing was written; someone who may write to the archive put it there\\n$`,
            ),
          );
        expect.soft(everything(), what).toEqual(before);
      }
      expect(existsSync("/tmp/PWNED1.jsonl")).toBe(false);
    });

    it("read --remote and search --remote leave out crafted messages, and show the others", async () => {
      const message = (
        session: unknown,
        position: number,
        fields: Record<string, unknown> = {},
      ) => ({
        session_id: session,
        entry_id: `e000000${position}`,
        position,
        role: "user",
        kind: "conversation",
        text: "the albatross migration",
        tags: [],
        project: FOLDER,
        folder: FOLDER,
        machine: "eve-box",
        user: "eve",
        timestamp: AT + position,
        session_created: AT,
        redactions: 0,
        ...fields,
      });
      const good = idOf(200);
      const commandLike = "e0000abc-0000-7000-8000-000000000201; touch pwned";
      await put(INDEX, `${good}:0`, message(good, 0));
      // A session id that is not one (a shell command follows it), and a folder that is not text.
      await put(INDEX, "crafted-1", message(commandLike, 0));
      await put(INDEX, "crafted-2", message(idOf(202), 0, { folder: 42 }));
      // A session with one sound message and one of no kind a push sends.
      const mixed = idOf(203);
      await put(INDEX, `${mixed}:0`, message(mixed, 0, { text: "the sound message" }));
      await put(
        INDEX,
        `${mixed}:1`,
        message(mixed, 1, { kind: "<script>", text: "the crafted message" }),
      );

      const human = await onDesktop(["search", "--remote", "team", "albatross"]);
      expect(human.stderr).toBe("");
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(good);
      expect(human.stdout).not.toContain("touch pwned");
      expect(human.stdout).not.toContain(idOf(202));
      const found = jsonLines(
        (await onDesktop(["search", "--remote", "team", "albatross", "--json"])).stdout,
      );
      expect(found.map((hit) => hit.id)).toEqual([good]);

      const read = await onDesktop(["read", "--remote", "team", "e0000abc"]);
      expect(read.code).toBe(2);
      expect(read.stderr).toBe("recall: no session e0000abc in remote team\n");
      const page = jsonLines(
        (await onDesktop(["read", "--remote", "team", mixed, "--mode", "raw", "--json"])).stdout,
      );
      expect(page.filter((l) => l.type === "message").map((m) => m.text)).toEqual([
        "the sound message",
      ]);
    });
  },
);
