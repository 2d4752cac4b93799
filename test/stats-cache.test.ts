/**
 * What `recall stats` keeps of each session file in the cache (src/api/stats-cache.ts), through
 * the built CLI and the library, on real files: a second count answers from the cache with the
 * same records and leaves it as it was, its costs added reply by reply; a file that grew, one
 * rewritten anew and one changed in place under its old size and time each count as a first count
 * does; a damaged cache (cut short, a byte changed, garbage, well-formed entries that lie, a FIFO
 * or a folder where it goes) and one of the format before are passed over and rebuilt; two counts
 * at once both answer and leave a whole cache; a session file that cannot be read is counted in
 * `unreadable`.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

let agent: AgentDir;
let cacheDir: string;
let cacheFile: string;
let sessionPath: string;

const SESSION_ID = "0f000000-0000-7000-8000-0000000000c1";
const FOLDER = "/home/dev/cached";
/** Long enough for a cold start on a busy machine; a hang goes on forever. */
const HANG_MS = 30_000;

const usage = (input: number, output: number, cost: number) => ({
  input,
  output,
  cacheRead: 10,
  cacheWrite: 5,
  totalTokens: input + output + 15,
  cost: { total: cost },
});
const user = (id: string, parentId: string | null, at: string, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: at,
    message: { role: "user", content: text, timestamp: at },
  });
const reply = (
  id: string,
  parentId: string,
  at: string,
  model: string,
  cost: number,
  path: string,
) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: at,
    message: {
      role: "assistant",
      provider: "acme",
      model,
      usage: usage(100, 50, cost),
      stopReason: "stop",
      timestamp: at,
      content: [
        { type: "text", text: "ok" },
        { type: "toolCall", id: `c-${id}`, name: "read", arguments: { path } },
      ],
    },
  });

const HEADER = JSON.stringify({
  type: "session",
  version: 3,
  id: SESSION_ID,
  timestamp: "2026-12-01T10:00:00.000Z",
  cwd: FOLDER,
});
const FIRST_TURNS = [
  user("p1", null, "2026-12-01T10:00:00.000Z", "first"),
  reply("p2", "p1", "2026-12-01T10:01:00.000Z", "large", 0.25, "src/a.ts"),
  user("p3", "p2", "2026-12-02T10:00:00.000Z", "second"),
  reply("p4", "p3", "2026-12-02T10:01:00.000Z", "small", 0.01, "src/a.ts"),
];

const ROOT = process.getuid?.() === 0;

const recall = (args: string[]) =>
  runRecall(args, { env: { ...agent.env, TZ: "UTC" }, timeoutMs: HANG_MS });

/** `recall stats --json` of every session, checked to have answered cleanly. */
async function stats(): Promise<Record<string, unknown>[]> {
  const result = await recall(["stats", "--json"]);
  expect(result).toMatchObject({ code: 0, stderr: "" });
  return jsonLines(result.stdout);
}

/** The answer of a first count: no cache at all. */
async function firstCount(): Promise<Record<string, unknown>[]> {
  rmSync(cacheFile, { recursive: true, force: true });
  return stats();
}

function writeSession(lines: string[]): void {
  writeFileSync(sessionPath, lines.join("\n") + "\n");
}

function leftovers(): string[] {
  return readdirSync(cacheDir).filter((name) => name.includes(".tmp"));
}

interface CacheParts {
  head: Record<string, unknown>;
  body: {
    strings: string[];
    files: Array<Record<string, unknown> & { counts: number[] }>;
  };
  numbers: number[];
}

/** The cache's head line, its line of facts and its numbers (stats-cache.ts). */
function readCache(): CacheParts {
  const bytes = readFileSync(cacheFile);
  const first = bytes.indexOf(0x0a);
  const head = JSON.parse(bytes.subarray(0, first).toString("utf8")) as { facts: number };
  const second = first + 1 + head.facts;
  const body = JSON.parse(bytes.subarray(first + 1, second).toString("utf8")) as CacheParts["body"];
  const raw = bytes.subarray(second + 1);
  const numbers = Array.from({ length: raw.length / 8 }, (_, i) => raw.readDoubleLE(i * 8));
  return { head, body, numbers };
}

/** A cache of these parts, its checksum matching. */
function writeCache({ head, body, numbers }: CacheParts): void {
  const text = JSON.stringify(body);
  const raw = Buffer.alloc(numbers.length * 8);
  numbers.forEach((n, i) => raw.writeDoubleLE(n, i * 8));
  const rest = Buffer.concat([Buffer.from(`${text}\n`), raw]);
  const sha1 = createHash("sha1").update(rest).digest("hex");
  const line = JSON.stringify({ ...head, sha1, facts: Buffer.byteLength(text) });
  writeFileSync(cacheFile, Buffer.concat([Buffer.from(`${line}\n`), rest]));
}

function cacheIsWhole(): boolean {
  const bytes = readFileSync(cacheFile);
  const newline = bytes.indexOf(0x0a);
  const head = JSON.parse(bytes.subarray(0, newline).toString("utf8")) as { sha1: string };
  return (
    createHash("sha1")
      .update(bytes.subarray(newline + 1))
      .digest("hex") === head.sha1
  );
}

beforeAll(() => {
  agent = makeAgentDir();
  cacheDir = join(agent.agentDir, "cache", "recall");
  cacheFile = join(cacheDir, "stats-facts.bin");
  const folder = join(agent.sessionsDir, "--home-dev-cached--");
  mkdirSync(folder);
  sessionPath = join(folder, `2026-12-01T10-00-00-000Z_${SESSION_ID}.jsonl`);
});
afterAll(() => agent.cleanup());
beforeEach(() => writeSession([HEADER, ...FIRST_TURNS]));

describe("recall stats keeps what it read", () => {
  it("a second count gives the same records from the cache and leaves the cache as it was", async () => {
    const first = await firstCount();
    expect(first.find((r) => r.type === "totals")).toMatchObject({ unreadable: 0 });
    expect(first.find((r) => r.type === "model" && r.model === "acme/large")).toMatchObject({
      messages: 1,
      cost: 0.25,
    });
    const kept = statSync(cacheFile);
    expect(cacheIsWhole()).toBe(true);
    expect(await stats()).toEqual(first);
    const after = statSync(cacheFile);
    expect([after.ino, after.mtimeMs, after.size]).toEqual([kept.ino, kept.mtimeMs, kept.size]);
    expect(leftovers()).toEqual([]);
  });

  it("a session that grew counts its new messages, as a first count does", async () => {
    await stats();
    appendFileSync(
      sessionPath,
      [
        user("p5", "p4", "2026-12-03T10:00:00.000Z", "third"),
        reply("p6", "p5", "2026-12-03T10:01:00.000Z", "fresh", 2.5, "src/b.ts"),
      ].join("\n") + "\n",
    );
    const grown = await stats();
    expect(grown.find((r) => r.type === "model" && r.model === "acme/fresh")).toMatchObject({
      sessions: 1,
      messages: 1,
      cost: 2.5,
    });
    expect(grown.find((r) => r.type === "day" && r.day === "2026-12-03")).toMatchObject({
      sessions: 1,
      messages: 2,
    });
    expect(grown.find((r) => r.type === "file" && r.path === `${FOLDER}/src/b.ts`)).toMatchObject({
      calls: 1,
      sessions: 1,
    });
    expect(grown).toEqual(await firstCount());
  });

  it("a session written anew in the same file, longer and with another header (as Pi migrates an old one), counts as it is now, not as an append", async () => {
    await stats();
    const header = HEADER.replace("10:00:00.000Z", "09:59:00.000Z");
    writeFileSync(
      sessionPath,
      [
        header,
        ...FIRST_TURNS,
        reply("p5", "p4", "2026-12-02T11:00:00.000Z", "small", 0.01, "src/c.ts"),
      ]
        .join("\n")
        .replaceAll('"large"', '"grand"') + "\n",
    );
    const rewritten = await stats();
    expect(rewritten.some((r) => r.model === "acme/large")).toBe(false);
    expect(rewritten.find((r) => r.type === "model" && r.model === "acme/grand")).toMatchObject({
      messages: 1,
    });
    expect(rewritten).toEqual(await firstCount());
  });

  it("a session changed in place under its old size and modification time counts as it is now", async () => {
    await stats();
    const before = statSync(sessionPath);
    writeFileSync(sessionPath, readFileSync(sessionPath, "utf8").replace('"small"', '"smoll"'));
    utimesSync(sessionPath, before.atime, before.mtime);
    expect(statSync(sessionPath).size).toBe(before.size);
    const changed = await stats();
    expect(changed.find((r) => r.type === "model" && r.model === "acme/smoll")).toMatchObject({
      messages: 1,
    });
    expect(changed.some((r) => r.model === "acme/small")).toBe(false);
  });
});

describe("costs from the cache", () => {
  it("add up reply by reply in the order a count reads them, so the last digit is a first count's", async () => {
    // Summed per file first, 0.2851398 + 0.303669 would be added to 0.3323697 as one: 0.921179.
    const folder = join(agent.sessionsDir, "--home-dev-pennies--");
    mkdirSync(folder);
    const session = (id: string, replies: Array<[string, number]>) => {
      const header = JSON.stringify({
        type: "session",
        version: 3,
        id,
        timestamp: "2026-12-10T09:00:00.000Z",
        cwd: "/home/dev/pennies",
      });
      const lines = replies.flatMap(([at, cost], i) => [
        user(`u${i}`, i === 0 ? null : `r${i - 1}`, at, "go"),
        reply(`r${i}`, `u${i}`, at, "penny", cost, "src/p.ts"),
      ]);
      writeFileSync(
        join(folder, `2026-12-10T09-00-00-000Z_${id}.jsonl`),
        [header, ...lines].join("\n") + "\n",
      );
    };
    session("0f000000-0000-7000-8000-0000000000d1", [["2026-12-10T12:00:00.000Z", 0.3323697]]);
    session("0f000000-0000-7000-8000-0000000000d2", [
      ["2026-12-10T10:00:00.000Z", 0.2851398],
      ["2026-12-10T10:30:00.000Z", 0.303669],
    ]);
    try {
      const first = await firstCount();
      const again = await stats();
      for (const answer of [first, again]) {
        expect(
          answer.find((r) => r.type === "project" && r.project === "/home/dev/pennies"),
        ).toMatchObject({ messages: 6, cost: 0.921178 });
        expect(answer.find((r) => r.type === "model" && r.model === "acme/penny")).toMatchObject({
          messages: 3,
          cost: 0.921178,
        });
        expect(answer.find((r) => r.type === "day" && r.day === "2026-12-10")).toMatchObject({
          sessions: 2,
          cost: 0.921178,
        });
      }
    } finally {
      rmSync(folder, { recursive: true });
    }
  });
});

describe("a damaged cache is passed over and rebuilt", () => {
  /** Each damage, done to a whole cache. */
  const damages: Array<[string, () => void]> = [
    [
      "cut short",
      () =>
        writeFileSync(
          cacheFile,
          readFileSync(cacheFile).subarray(0, statSync(cacheFile).size >> 1),
        ),
    ],
    [
      "a byte of a number changed",
      () => {
        const bytes = readFileSync(cacheFile);
        bytes[bytes.length - 3]! ^= 0x10;
        writeFileSync(cacheFile, bytes);
      },
    ],
    [
      "garbage",
      () =>
        writeFileSync(
          cacheFile,
          Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
        ),
    ],
    ["empty", () => writeFileSync(cacheFile, "")],
    [
      "entries that lie, under a checksum that matches",
      () => {
        const cache = readCache();
        const { body, numbers } = cache;
        let at = 0;
        body.files.forEach((file, i) => {
          const [quarters, models] = file.counts as [number, number];
          if (file.path === sessionPath) numbers[at + quarters] = body.strings.length + 5;
          else if (i % 4 === 0) file.first = "many";
          else if (i % 4 === 1) file.size = -1;
          else if (i % 4 === 2) Object.assign(file, { first: 1, last: 0 });
          else if (quarters > 0) file.counts = [quarters - 1, models + 1, ...file.counts.slice(2)];
          at += file.counts.reduce((sum, n) => sum + n, 0);
        });
        writeCache(cache);
      },
    ],
    [
      "columns that add up to more numbers than it holds",
      () => {
        const cache = readCache();
        cache.body.files[0]!.counts[0]! += 6;
        writeCache(cache);
      },
    ],
    [
      "a FIFO",
      () => {
        rmSync(cacheFile);
        execFileSync("mkfifo", [cacheFile]);
      },
    ],
  ];

  for (const [name, damage] of damages) {
    it(`${name}: the same records as a first count, and a whole cache after`, async () => {
      const first = await firstCount();
      damage();
      expect(await stats()).toEqual(first);
      expect(cacheIsWhole()).toBe(true);
      expect(await stats()).toEqual(first);
      expect(leftovers()).toEqual([]);
    });
  }

  it("a folder where the cache goes: the same records, and nothing kept", async () => {
    const first = await firstCount();
    rmSync(cacheFile);
    mkdirSync(cacheFile);
    expect(await stats()).toEqual(first);
    expect(statSync(cacheFile).isDirectory()).toBe(true);
    expect(leftovers()).toEqual([]);
    rmSync(cacheFile, { recursive: true });
  });

  it.skipIf(ROOT)(
    `a cache folder that cannot be written: the same records${ROOT ? " (skipped: root writes into a read-only folder)" : ""}`,
    async () => {
      const first = await firstCount();
      rmSync(cacheFile);
      chmodSync(cacheDir, 0o500);
      try {
        expect(await stats()).toEqual(first);
        expect(existsSync(cacheFile)).toBe(false);
      } finally {
        chmodSync(cacheDir, 0o700);
      }
    },
  );
});

describe("a cache of the format before", () => {
  it("is passed over (the same records as a first count) and removed once the new one is written", async () => {
    const first = await firstCount();
    const old = join(cacheDir, "stats-facts.json");
    writeFileSync(old, `{"kind":"stats-facts","format":2,"sha1":"0"}\n{"strings":[],"files":[]}`);
    rmSync(cacheFile);
    expect(await stats()).toEqual(first);
    expect(existsSync(old)).toBe(false);
    expect(cacheIsWhole()).toBe(true);
  });
});

describe("two processes at once", () => {
  it("both answer as one would, and leave one whole cache and no temporary file", async () => {
    const first = await firstCount();
    rmSync(cacheFile);
    const both = await Promise.all([stats(), stats(), stats()]);
    for (const answer of both) expect(answer).toEqual(first);
    expect(cacheIsWhole()).toBe(true);
    expect(leftovers()).toEqual([]);
  });
});

describe("the library's stats over a cache", () => {
  it("a session file that is gone or is now a FIFO counts in unreadable, the rest as before; a second call gives the same", async () => {
    const { Recall } = await import("../src/index.js");
    const library = Recall.open({ env: { ...agent.env, TZ: "UTC" }, cwd: agent.root });
    try {
      const before = await library.stats();
      expect(before.unreadable).toBe(0);
      expect(await library.stats({ sync: false })).toEqual(before);
      rmSync(sessionPath);
      execFileSync("mkfifo", [sessionPath]);
      const fifo = await library.stats({ sync: false });
      expect(fifo.unreadable).toBe(1);
      expect(fifo.totals.sessions).toBe(before.totals.sessions - 1);
      expect(fifo.totals.messages).toBe(before.totals.messages - 4);
      expect(fifo.models.find((m) => m.model === "acme/large")).toBeUndefined();
      rmSync(sessionPath);
      expect(await library.stats({ sync: false })).toEqual(fifo);
    } finally {
      library.close();
      rmSync(sessionPath, { force: true });
    }
  });

  it.skipIf(ROOT)(
    `a session file it may no longer read counts in unreadable${ROOT ? " (skipped: root reads a file of mode 000)" : ""}`,
    async () => {
      const { Recall } = await import("../src/index.js");
      const library = Recall.open({ env: { ...agent.env, TZ: "UTC" }, cwd: agent.root });
      try {
        expect((await library.stats()).unreadable).toBe(0);
        chmodSync(sessionPath, 0o000);
        expect((await library.stats({ sync: false })).unreadable).toBe(1);
      } finally {
        chmodSync(sessionPath, 0o600);
        library.close();
      }
    },
  );
});
