/**
 * Redaction before anything leaves the machine, on the real code path: real Pi session files,
 * pushed by `push` in a dry run (which builds and redacts every document and kept file as a push
 * does, and sends nothing). Every secret shape in every place that leaves — message text, tool-call
 * arguments, tool output, thinking, session name, folder, tags, kept file — must be gone; the
 * look-alikes (code, prose) must stay byte for byte, in the documents and in the kept file, or
 * `recall pull` would find the pushed session changed. Every secret here is made up, and built
 * from pieces so that no scanner takes this file for a leak.
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

/** A made-up random part of `n` characters from `alphabet`, different for each seed. */
function random(seed: number, n: number, alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"): string {
  let x = seed * 0x9e3779b9;
  return Array.from({ length: n }, () => {
    // mulberry32
    x = (x + 0x6d2b79f5) | 0;
    let t = Math.imul(x ^ (x >>> 15), 1 | x);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length];
  }).join("");
}
const hex = (seed: number, n: number) => random(seed, n, "0123456789abcdef");
const b64 = (seed: number, n: number) => random(seed, n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
const uuid = (seed: number) => `${hex(seed, 8)}-${hex(seed + 1, 4)}-4${hex(seed + 2, 3)}-a${hex(seed + 3, 3)}-${hex(seed + 4, 12)}`;

/**
 * A secret shape: the text that holds it, and the secret itself (what must not leave). A token
 * (`tag`) is a secret by its own shape, and is put in a tag too: a tag holds letters, digits, _
 * and -, lowercased, so never `key=value`, a URL or a password whose context says what it is.
 */
interface Shape {
  name: string;
  text: string;
  secret: string;
  tag: boolean;
}

function shape(name: string, secret: string, text: (secret: string) => string, tag = false): Shape {
  return { name, secret, text: text(secret), tag };
}
const token = (name: string, secret: string, text: (secret: string) => string) => shape(name, secret, text, true);

const pemBody = (seed: number) => Array.from({ length: 12 }, (_, i) => b64(seed + i, 64)).join("\n");

const SHAPES: Shape[] = [
  shape("AWS access key id", `${"AK"}IA${random(1, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`, (s) => `aws configure set aws_access_key_id ${s}`),
  shape("AWS secret key in aws sts JSON", b64(2, 40), (s) => `{\n  "Credentials": {\n    "AccessKeyId": "ASIA${random(3, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")}",\n    "SecretAccessKey": "${s}",\n    "Expiration": "2026-11-02T10:00:00Z"\n  }\n}`),
  shape("AWS secret key in prose", b64(4, 40), (s) => `I rotated it; the new secret access key is ${s} and the old one is revoked`),
  shape("aws_secret_access_key in credentials", b64(5, 40), (s) => `[default]\naws_secret_access_key = ${s}\nregion = eu-west-1`),
  shape("AWS session token in JSON", `IQoJb3JpZ2luX2VjE${b64(6, 180)}`, (s) => `    "SessionToken": "${s}",`),
  token("GitHub token", `${"gh"}p_${random(7, 36)}`, (s) => `git remote set-url origin https://x-access-token:${s}@github.com/o/r.git`),
  token("GitHub fine-grained token", `${"github"}_pat_${random(8, 82)}`, (s) => `GH_TOKEN=${s} gh pr list`),
  token("GitLab token", `${"glp"}at-${random(9, 20)}`, (s) => `curl --header "PRIVATE-TOKEN: ${s}" https://gitlab.example.com/api/v4/projects`),
  token("Slack bot token", `${"xo"}xb-${random(10, 12, "0123456789")}-${random(11, 13, "0123456789")}-${random(12, 24)}`, (s) => `slack_token: ${s}`),
  token("Slack app token", `${"xa"}pp-1-A0${random(13, 9, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")}-${random(14, 13, "0123456789")}-${hex(15, 64)}`, (s) => `SLACK_APP_TOKEN=${s}`),
  token("OpenAI key", `${"sk"}-proj-${random(16, 58)}T3BlbkFJ${random(17, 58)}`, (s) => `export OPENAI_API_KEY=${s}`),
  token("Anthropic key", `${"sk"}-ant-api03-${random(18, 93)}AA`, (s) => `client = Anthropic(api_key="${s}")`),
  token("Stripe key", `${"sk"}_live_${random(19, 24)}`, (s) => `stripe.api_key = '${s}'`),
  token("Google API key", `${"AI"}za${random(20, 35)}`, (s) => `const url = "https://maps.googleapis.com/maps/api/geocode/json?key=${s}"`),
  token("npm token", `${"np"}m_${random(21, 36)}`, (s) => `//registry.npmjs.org/:_authToken=${s}`),
  shape(".npmrc auth token (a uuid)", uuid(22), (s) => `registry=https://npm.example.com/\n//npm.example.com/:_authToken=${s}\nalways-auth=true`),
  token("Hugging Face token", `${"h"}f_${random(23, 34, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")}`, (s) => `huggingface-cli login --token ${s}`),
  shape("SendGrid key", `${"S"}G.${random(24, 22)}.${random(25, 43)}`, (s) => `SENDGRID_API_KEY='${s}'`),
  shape("Azure storage key", `${b64(26, 86)}==`, (s) => `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${s};EndpointSuffix=core.windows.net`),
  shape("JWT", `${"ey"}JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${"ey"}J${random(27, 40)}.${random(28, 43)}`, (s) => `access_token cookie was ${s}`),
  shape("Bearer header", random(29, 40), (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com/v1/me`),
  shape("Basic auth header", Buffer.from(`deploy:${random(30, 14)}`).toString("base64"), (s) => `Authorization: Basic ${s}`),
  shape("X-Api-Key header", hex(31, 32), (s) => `curl -s -H 'X-Api-Key: ${s}' https://api.example.com/items`),
  shape("password in a postgres URL", `${random(32, 10)}x9`, (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`),
  shape("password holding @ in a URL", `p@${random(33, 10)}`, (s) => `mongodb://admin:${s}@mongo.internal:27017/admin`),
  shape("redis URL with no user", random(34, 16), (s) => `REDIS_URL=redis://:${s}@cache.internal:6379/0`),
  shape("mysql -p", `${random(35, 10)}!7`, (s) => `mysql -u root -p${s} -h 127.0.0.1 shop`),
  shape("DB_PASSWORD in quoted words", "correct horse battery staple", (s) => `DB_PASSWORD="${s}"`),
  shape("YAML password", `${random(36, 12)}#1`, (s) => `database:\n  host: db.internal\n  password: ${s}\n  pool: 5`),
  shape("JSON password", `${random(37, 12)}-2`, (s) => `{"user": "svc", "password": "${s}", "host": "db"}`),
  shape("export TOKEN mid-line", random(38, 24), (s) => `cd app && export TOKEN=${s} && ./deploy.sh`),
  shape("PASSWORD= mid-line", `${random(39, 10)}_3`, (s) => `echo start; PASSWORD=${s} ./run-migrations`),
  shape("private key", pemBody(40), (s) => `-----BEGIN ${"RSA PRIVATE"} KEY-----\n${s}\n-----END ${"RSA PRIVATE"} KEY-----`),
];

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

const PLACES = ["message", "tool-call", "tool-output", "thinking", "session-name", "folder", "tags", "kept-file"] as const;
type Place = (typeof PLACES)[number];

const CALL_PREFIX = "cat <<'EOF' > notes.txt\n";
const OUTPUT_PREFIX = "wrote notes.txt:\n";
const sessionId = (n: number) => `0d${String(n).padStart(6, "0")}-1111-7222-8333-944445555666`;
const at = Date.parse("2026-10-20T00:00:00Z");

/** One Pi session file holding `text` in every place a session file can hold it. */
function sessionFile(n: number, cwd: string, text: string): string {
  const ms = at + n * 60_000;
  const entry = (id: string, parentId: string | null, message: Record<string, unknown>) =>
    JSON.stringify({ type: "message", id, parentId, timestamp: new Date(ms).toISOString(), message: { ...message, timestamp: ms } });
  return `${[
    JSON.stringify({ type: "session", version: 3, id: sessionId(n), timestamp: new Date(ms).toISOString(), cwd }),
    JSON.stringify({ type: "session_info", id: "i1", parentId: null, timestamp: new Date(ms).toISOString(), name: `fix deploy ${text}` }),
    entry("m1", "i1", { role: "user", content: `please look at this:\n${text}\nthanks` }),
    entry("m2", "m1", {
      role: "assistant",
      content: [
        { type: "thinking", thinking: `The user pasted this:\n${text}\nI should not repeat it.` },
        { type: "text", text: "Let me run it." },
        { type: "toolCall", id: "c1", name: "bash", arguments: { command: `${CALL_PREFIX}${text}\nEOF` } },
      ],
      provider: "faux",
      model: "faux-1",
      stopReason: "toolUse",
    }),
    entry("m3", "m2", { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: `${OUTPUT_PREFIX}${text}\n` }], isError: false }),
    entry("m4", "m3", { role: "assistant", content: [{ type: "text", text: "Done." }], provider: "faux", model: "faux-1", stopReason: "stop" }),
  ].join("\n")}\n`;
}

interface Pushed {
  documents: IdentifiedDocument[];
  files: KeptFile[];
}

/** Writes one session a text, tags each with its tags, and dry-runs a push of all kinds with kept files: what would leave, by session. */
async function pushTexts(agent: AgentDir, texts: readonly string[], tagsOf: (n: number) => string[] = () => []): Promise<Map<string, Pushed>> {
  const folders = texts.map((text, n) => `${join(agent.root, "work", `app-${n}`)}/${text.split("\n")[0]}`);
  texts.forEach((text, n) => {
    const folder = join(agent.sessionsDir, `--work-app-${n}--`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `2026-10-20T00-00-00-000Z_${sessionId(n)}.jsonl`), sessionFile(n, folders[n]!, text));
  });
  const dataDir = join(agent.root, "data");
  mkdirSync(dataDir, { recursive: true });
  const tags = TagStore.open(join(dataDir, TAGS_DB_FILE));
  try {
    for (let n = 0; n < texts.length; n++) if (tagsOf(n).length > 0) await tags.addManual(sessionId(n), tagsOf(n));
  } finally {
    tags.close();
  }
  const remote = { url: "http://127.0.0.1:9", index: "redaction", machine: "laptop", user: "ada", content: ["conversation", "calls", "outputs", "thinking"], keepFiles: true };
  writeFileSync(join(dataDir, "config.json"), JSON.stringify({ remotes: { team: remote } }));
  const env = { ...agent.env, RECALL_DATA_DIR: dataDir, RECALL_CACHE_DIR: join(agent.root, "cache") };
  const pushed = new Map<string, Pushed>();
  const of = (id: string) => pushed.get(id) ?? pushed.set(id, { documents: [], files: [] }).get(id)!;
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
  const text = (kind: string) => pushed.documents.filter((d) => d.document.kind === kind).map((d) => d.document.text);
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
      return [...pushed.documents.map((d) => `${d.document.folder}\n${d.document.project}`), ...pushed.files.map((f) => `${f.folder}\n${f.project}`)].join("\n");
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
    pushed = await pushTexts(agent, SHAPES.map((s) => s.text), (n) => (SHAPES[n]!.tag ? [SHAPES[n]!.secret] : []));
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
        if (asIn(place, shape.secret).some((part) => text.includes(part))) leaks.push(`${shape.name} × ${place}`);
      }
    });
    expect(leaks, `${leaks.length} of ${pairs} pairs leak`).toEqual([]);
    expect(pairs).toBe(SHAPES.length * (PLACES.length - 1) + SHAPES.filter((s) => s.tag).length);
  });

  it("names each redaction by its kind in the documents and the kept file", () => {
    const first = pushed.get(sessionId(0))!;
    expect(first.documents.find((d) => d.document.kind === "conversation")!.document.text).toMatch(/\[REDACTED:aws-access-key-id\]/);
    expect(first.documents[0]!.places["session-name"]).toEqual({ "aws-access-key-id": 1 });
    expect(first.files[0]!.content).toContain("[REDACTED:aws-access-key-id]");
    // The kept file is still Pi's JSON Lines.
    for (const line of first.files[0]!.content.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
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
      for (const { document } of session.documents) expect(document.redactions, `${text} (${document.kind})`).toBe(0);
      expect(session.documents.find((d) => d.document.kind === "conversation")!.document.text).toContain(text);
      const file = session.files[0]!;
      expect(file.redactions, text).toBe(0);
      const path = join(agent.sessionsDir, `--work-app-${n}--`, `2026-10-20T00-00-00-000Z_${sessionId(n)}.jsonl`);
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
