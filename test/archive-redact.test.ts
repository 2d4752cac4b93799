/**
 * Redaction before anything leaves the machine, on the real code path: real Pi session files,
 * pushed by `push` in a dry run (which builds and redacts every document and kept file as a push
 * does, and sends nothing). Every secret shape in every place that leaves — message text, tool-call
 * arguments, tool output, thinking, session name, folder, tags, kept file — must be gone; the
 * look-alikes (code, prose) must stay byte for byte, in the documents and in the kept file, or
 * `recall pull` would find the pushed session changed. The shapes: test/helpers/secret-shapes.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Archive } from "../src/archive/archive.js";
import type { IdentifiedDocument } from "../src/archive/documents.js";
import type { KeptFile } from "../src/archive/kept-files.js";
import { redact } from "../src/archive/redact.js";
import { CALL_ARGUMENT_CHARS, OUTPUT_HEAD_CHARS } from "../src/sessions/other-text.js";
import { normalizeTag } from "../src/tags/normalize.js";
import { TAGS_DB_FILE, TagStore } from "../src/tags/tag-store.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import {
  CALL_PREFIX,
  OUTPUT_PREFIX,
  pemBody,
  random,
  sessionId,
  SHAPES,
  writeSessions,
} from "./helpers/secret-shapes.js";

/** Code and prose that only look like secrets: every one must leave exactly as it is. */
const LOOK_ALIKES = [
  "const tokenCache = createCache(),",
  "  tokenCache = createCache(),",
  "Tokens: 150000",
  "Tokens: 150000 of 200000 used, max_tokens: 4096",
  "Password: required for every account",
  "const token = await getToken();",
  "password = self.password",
  "token: string;",
  "  pass: matchResult?.pass ?? false,",
  "let hasApiKey = !isBearerToken;",
  "exports.findX509Credential = exports.rememberX509Credential = exports.findX509OAuthError = void 0;",
  "readonly endOfFileToken: Token<SyntaxKind.EndOfFileToken>;",
  "progressToken: z.ZodOptional<z.ZodUnion<readonly [z.ZodString, z.ZodNumber]>>;",
  'readonly AWS_SECRET_KEY: "AWS_SECRET_KEY";',
  'InvalidToken = "invalid_token",',
  "readonly STENCIL_PASS_DEPTH_PASS: 0x0B96;",
  "const ai = new GoogleGenAI({apiKey: 'GEMINI_API_KEY'});",
  "PASSWORD_MIN_LENGTH=8",
  "TOKEN_TYPE=bearer",
  "OPENAI_API_KEY=$(cat ~/.openai)",
  "API_KEY=<your key here>",
  "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
  "const key = process.env.OPENAI_API_KEY;",
  "SSH_KEY=~/.ssh/id_rsa",
  "the Bearer scheme sends a token in the Authorization header",
  "Basic authentication is enabled",
  "visit https://user@example.com/path and http://localhost:8080/a:b",
  "git@github.com:owner/repo.git",
  "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the deploy",
  "the session 01a0f6b1-2c3d-4e5f-8a9b-0c1d2e3f4a5b was resumed",
  "sk-learn is the scikit-learn nickname; task-ant-1 is a ticket",
  "AKIA is the prefix of AWS access key ids",
  "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
  "eyJhbGciOiJIUzI1NiJ9 is the header of a JWT, base64url",
  "// secretlint-disable\nconst answer = 42;",
];

const PLACES = [
  "message",
  "tool-call",
  "tool-output",
  "thinking",
  "session-name",
  "folder",
  "tags",
  "kept-file",
] as const;
type Place = (typeof PLACES)[number];

interface Pushed {
  documents: IdentifiedDocument[];
  files: KeptFile[];
}

/**
 * Writes one session a text, tags each with its tags, and dry-runs a push of all kinds with kept
 * files: what would leave, by session.
 */
async function pushTexts(
  agent: AgentDir,
  texts: readonly string[],
  tagsOf: (n: number) => string[] = () => [],
): Promise<Map<string, Pushed>> {
  writeSessions(agent.sessionsDir, agent.root, texts);
  const dataDir = join(agent.root, "data");
  mkdirSync(dataDir, { recursive: true });
  const tags = TagStore.open(join(dataDir, TAGS_DB_FILE));
  try {
    for (let n = 0; n < texts.length; n++)
      if (tagsOf(n).length > 0) await tags.addManual(sessionId(n), tagsOf(n));
  } finally {
    tags.close();
  }
  const remote = {
    url: "http://127.0.0.1:9",
    index: "redaction",
    machine: "laptop",
    user: "ada",
    content: ["conversation", "calls", "outputs", "thinking"],
    keepFiles: true,
  };
  writeFileSync(join(dataDir, "config.json"), JSON.stringify({ remotes: { team: remote } }));
  const env = {
    ...agent.env,
    RECALL_DATA_DIR: dataDir,
    RECALL_CACHE_DIR: join(agent.root, "cache"),
  };
  const pushed = new Map<string, Pushed>();
  const of = (id: string) =>
    pushed.get(id) ?? pushed.set(id, { documents: [], files: [] }).get(id)!;
  const report = await Archive.open({ env, cwd: agent.root }).push("team", {
    dryRun: true,
    onDocument: (d) => of(d.document.session_id).documents.push(d),
    onFile: (f) => of(f.session_id).files.push(f),
  });
  expect(report.failed).toEqual([]);
  return pushed;
}

/** What leaves from one place of a pushed session, as text. */
function placeText(pushed: Pushed, place: Place): string {
  const text = (kind: string) =>
    pushed.documents.filter((d) => d.document.kind === kind).map((d) => d.document.text);
  switch (place) {
    case "message":
      return text("conversation").join("\n");
    case "tool-call":
      return text("calls").join("\n");
    case "tool-output":
      return text("outputs").join("\n");
    case "thinking":
      return text("thinking").join("\n");
    case "session-name":
      return pushed.documents.map((d) => d.document.session_name ?? "").join("\n");
    case "folder":
      return [
        ...pushed.documents.map((d) => `${d.document.folder}\n${d.document.project}`),
        ...pushed.files.map((f) => `${f.folder}\n${f.project}`),
      ].join("\n");
    case "tags":
      return pushed.documents.map((d) => d.document.tags.join(" ")).join("\n");
    case "kept-file":
      return pushed.files.map((f) => JSON.stringify(f)).join("\n");
  }
}

/** How a secret would read in a place: a tag holds it lowercased, JSON (a kept file) escaped. */
function asIn(place: Place, secret: string): string[] {
  const parts = secret.split("\n").filter((line) => line.length >= 6);
  if (place === "tags") return [normalizeTag(secret)];
  if (place === "kept-file") return parts.map((p) => JSON.stringify(p).slice(1, -1));
  return parts;
}

describe("redaction of every secret shape in every place that leaves", () => {
  let agent: AgentDir;
  let pushed: Map<string, Pushed>;
  beforeAll(async () => {
    agent = makeAgentDir({ withFixtures: false });
    pushed = await pushTexts(
      agent,
      SHAPES.map((s) => s.text),
      (n) => (SHAPES[n]!.tag ? [SHAPES[n]!.secret] : []),
    );
  }, 120_000);
  afterAll(() => agent?.cleanup());

  it(`leaves none of ${SHAPES.length} shapes in any of ${PLACES.length} places`, () => {
    const leaks: string[] = [];
    let pairs = 0;
    SHAPES.forEach((shape, n) => {
      const session = pushed.get(sessionId(n));
      expect(session, shape.name).toBeDefined();
      for (const place of PLACES) {
        if (place === "tags" && !shape.tag) continue;
        pairs++;
        const text = placeText(session!, place);
        expect(text.length, `${shape.name} × ${place}: nothing left from it`).toBeGreaterThan(0);
        if (asIn(place, shape.secret).some((part) => text.includes(part)))
          leaks.push(`${shape.name} × ${place}`);
      }
    });
    expect(leaks, `${leaks.length} of ${pairs} pairs leak`).toEqual([]);
    expect(pairs).toBe(SHAPES.length * (PLACES.length - 1) + SHAPES.filter((s) => s.tag).length);
  });

  it("names each redaction by its kind in the documents and the kept file", () => {
    const first = pushed.get(sessionId(0))!;
    expect(first.documents.find((d) => d.document.kind === "conversation")!.document.text).toMatch(
      /\[REDACTED:aws-access-key-id\]/,
    );
    expect(first.documents[0]!.places["session-name"]).toEqual({ "aws-access-key-id": 1 });
    expect(first.files[0]!.content).toContain("[REDACTED:aws-access-key-id]");
    // The kept file is still Pi's JSON Lines.
    for (const line of first.files[0]!.content.trim().split("\n"))
      expect(() => JSON.parse(line)).not.toThrow();
  });
});

describe("look-alikes stay byte for byte", () => {
  let agent: AgentDir;
  let pushed: Map<string, Pushed>;
  beforeAll(async () => {
    agent = makeAgentDir({ withFixtures: false });
    pushed = await pushTexts(agent, LOOK_ALIKES);
  }, 120_000);
  afterAll(() => agent?.cleanup());

  it("in every document and in the kept file, which is the session file itself", () => {
    LOOK_ALIKES.forEach((text, n) => {
      const session = pushed.get(sessionId(n))!;
      for (const { document } of session.documents)
        expect(document.redactions, `${text} (${document.kind})`).toBe(0);
      expect(
        session.documents.find((d) => d.document.kind === "conversation")!.document.text,
      ).toContain(text);
      const file = session.files[0]!;
      expect(file.redactions, text).toBe(0);
      const path = join(
        agent.sessionsDir,
        `--work-app-${n}--`,
        `2026-10-20T00-00-00-000Z_${sessionId(n)}.jsonl`,
      );
      expect(file.content, text).toBe(readFileSync(path, "utf8"));
    });
  });
});

describe("a cut never leaves part of a secret", () => {
  let agent: AgentDir;
  let pushed: Map<string, Pushed>;
  const token = `${"gh"}p_${random(50, 36)}`;
  const key = pemBody(51);
  const texts = [
    // A token across the cut of a call's argument: its first characters inside it.
    `${"x".repeat(CALL_ARGUMENT_CHARS - CALL_PREFIX.length - 8)} ${token}`,
    // A private key whose END line is past the cut.
    `cat > id_rsa <<'EOF'\n-----BEGIN ${"OPENSSH PRIVATE"} KEY-----\n${key}\n-----END ${"OPENSSH PRIVATE"} KEY-----\nEOF`,
    // A token across the cut of an output's first characters.
    `${"y".repeat(OUTPUT_HEAD_CHARS - OUTPUT_PREFIX.length - 8)} ${token} ${"z".repeat(2000)}`,
  ];
  beforeAll(async () => {
    agent = makeAgentDir({ withFixtures: false });
    pushed = await pushTexts(agent, texts);
  }, 120_000);
  afterAll(() => agent?.cleanup());

  it("redacts a call's arguments and an output whole, then cuts them", () => {
    const call = placeText(pushed.get(sessionId(0))!, "tool-call");
    expect(call).not.toContain(token.slice(0, 6));
    expect(call).toContain("[REDACTED:github-token]".slice(0, 6));
    const pem = placeText(pushed.get(sessionId(1))!, "tool-call");
    expect(pem).toContain("[REDACTED:private-key]");
    for (const line of key.split("\n")) expect(pem).not.toContain(line.slice(0, 12));
    const output = placeText(pushed.get(sessionId(2))!, "tool-output");
    expect(output).not.toContain(token.slice(0, 6));
  });

  it("takes an unterminated private key as a secret to the end of the text", async () => {
    const cut = `here it is:\n-----BEGIN ${"PRIVATE"} KEY-----\n${key.slice(0, 300)}`;
    expect((await redact(cut)).text).toBe("here it is:\n[REDACTED:private-key]");
  });
});
