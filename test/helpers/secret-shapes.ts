/**
 * Realistic secret shapes for the redaction tests (test/archive-redact.test.ts, and on the real
 * engine test/archive-secrets.test.ts), and a Pi session file that holds a text in every place a
 * session can hold it. Every secret here is made up, built from pieces so that no scanner takes
 * this file for a leak.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A made-up random part of `n` characters from `alphabet`, different for each seed. */
export function random(
  seed: number,
  n: number,
  alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
): string {
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
const b64 = (seed: number, n: number) =>
  random(seed, n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
const uuid = (seed: number) =>
  `${hex(seed, 8)}-${hex(seed + 1, 4)}-4${hex(seed + 2, 3)}-a${hex(seed + 3, 3)}-${hex(seed + 4, 12)}`;

/**
 * A secret shape: the text that holds it, and the secret itself (what must not leave). A token
 * (`tag`) is a secret by its own shape, and is put in a tag too: a tag holds letters, digits, _
 * and -, lowercased, so never `key=value`, a URL or a password whose context says what it is.
 */
export interface Shape {
  name: string;
  text: string;
  secret: string;
  tag: boolean;
}

function shape(name: string, secret: string, text: (secret: string) => string, tag = false): Shape {
  return { name, secret, text: text(secret), tag };
}
const token = (name: string, secret: string, text: (secret: string) => string) =>
  shape(name, secret, text, true);

export const pemBody = (seed: number) =>
  Array.from({ length: 12 }, (_, i) => b64(seed + i, 64)).join("\n");

export const SHAPES: Shape[] = [
  shape(
    "AWS access key id",
    `${"AK"}IA${random(1, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`,
    (s) => `aws configure set aws_access_key_id ${s}`,
  ),
  shape(
    "AWS secret key in aws sts JSON",
    b64(2, 40),
    (s) =>
      `{\n  "Credentials": {\n    "AccessKeyId": "ASIA${random(3, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")}",\n    "SecretAccessKey": "${s}",\n    "Expiration": "2026-11-02T10:00:00Z"\n  }\n}`,
  ),
  shape(
    "AWS secret key in prose",
    b64(4, 40),
    (s) => `I rotated it; the new secret access key is ${s} and the old one is revoked`,
  ),
  shape(
    "aws_secret_access_key in credentials",
    b64(5, 40),
    (s) => `[default]\naws_secret_access_key = ${s}\nregion = eu-west-1`,
  ),
  shape(
    "AWS session token in JSON",
    `IQoJb3JpZ2luX2VjE${b64(6, 180)}`,
    (s) => `    "SessionToken": "${s}",`,
  ),
  token(
    "GitHub token",
    `${"gh"}p_${random(7, 36)}`,
    (s) => `git remote set-url origin https://x-access-token:${s}@github.com/o/r.git`,
  ),
  token(
    "GitHub fine-grained token",
    `${"github"}_pat_${random(8, 82)}`,
    (s) => `GH_TOKEN=${s} gh pr list`,
  ),
  token(
    "GitLab token",
    `${"glp"}at-${random(9, 20)}`,
    (s) => `curl --header "PRIVATE-TOKEN: ${s}" https://gitlab.example.com/api/v4/projects`,
  ),
  token(
    "Slack bot token",
    `${"xo"}xb-${random(10, 12, "0123456789")}-${random(11, 13, "0123456789")}-${random(12, 24)}`,
    (s) => `slack_token: ${s}`,
  ),
  token(
    "Slack app token",
    `${"xa"}pp-1-A0${random(13, 9, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")}-${random(14, 13, "0123456789")}-${hex(15, 64)}`,
    (s) => `SLACK_APP_TOKEN=${s}`,
  ),
  token(
    "OpenAI key",
    `${"sk"}-proj-${random(16, 58)}T3BlbkFJ${random(17, 58)}`,
    (s) => `export OPENAI_API_KEY=${s}`,
  ),
  token(
    "Anthropic key",
    `${"sk"}-ant-api03-${random(18, 93)}AA`,
    (s) => `client = Anthropic(api_key="${s}")`,
  ),
  token("Stripe key", `${"sk"}_live_${random(19, 24)}`, (s) => `stripe.api_key = '${s}'`),
  token(
    "Google API key",
    `${"AI"}za${random(20, 35)}`,
    (s) => `const url = "https://maps.googleapis.com/maps/api/geocode/json?key=${s}"`,
  ),
  token("npm token", `${"np"}m_${random(21, 36)}`, (s) => `//registry.npmjs.org/:_authToken=${s}`),
  shape(
    ".npmrc auth token (a uuid)",
    uuid(22),
    (s) =>
      `registry=https://npm.example.com/\n//npm.example.com/:_authToken=${s}\nalways-auth=true`,
  ),
  token(
    "Hugging Face token",
    `${"h"}f_${random(23, 34, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")}`,
    (s) => `huggingface-cli login --token ${s}`,
  ),
  shape(
    "SendGrid key",
    `${"S"}G.${random(24, 22)}.${random(25, 43)}`,
    (s) => `SENDGRID_API_KEY='${s}'`,
  ),
  shape(
    "Azure storage key",
    `${b64(26, 86)}==`,
    (s) =>
      `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${s};EndpointSuffix=core.windows.net`,
  ),
  shape(
    "JWT",
    `${"ey"}JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${"ey"}J${random(27, 40)}.${random(28, 43)}`,
    (s) => `access_token cookie was ${s}`,
  ),
  shape(
    "Bearer header",
    random(29, 40),
    (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com/v1/me`,
  ),
  shape(
    "Basic auth header",
    Buffer.from(`deploy:${random(30, 14)}`).toString("base64"),
    (s) => `Authorization: Basic ${s}`,
  ),
  shape(
    "X-Api-Key header",
    hex(31, 32),
    (s) => `curl -s -H 'X-Api-Key: ${s}' https://api.example.com/items`,
  ),
  shape(
    "password in a postgres URL",
    `${random(32, 10)}x9`,
    (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`,
  ),
  shape(
    "password holding @ in a URL",
    `p@${random(33, 10)}`,
    (s) => `mongodb://admin:${s}@mongo.internal:27017/admin`,
  ),
  shape(
    "redis URL with no user",
    random(34, 16),
    (s) => `REDIS_URL=redis://:${s}@cache.internal:6379/0`,
  ),
  shape("mysql -p", `${random(35, 10)}!7`, (s) => `mysql -u root -p${s} -h 127.0.0.1 shop`),
  shape("DB_PASSWORD in quoted words", "correct horse battery staple", (s) => `DB_PASSWORD="${s}"`),
  shape(
    "YAML password",
    `${random(36, 12)}#1`,
    (s) => `database:\n  host: db.internal\n  password: ${s}\n  pool: 5`,
  ),
  shape(
    "JSON password",
    `${random(37, 12)}-2`,
    (s) => `{"user": "svc", "password": "${s}", "host": "db"}`,
  ),
  shape(
    "export TOKEN mid-line",
    random(38, 24),
    (s) => `cd app && export TOKEN=${s} && ./deploy.sh`,
  ),
  shape(
    "PASSWORD= mid-line",
    `${random(39, 10)}_3`,
    (s) => `echo start; PASSWORD=${s} ./run-migrations`,
  ),
  shape(
    "private key",
    pemBody(40),
    (s) => `-----BEGIN ${"RSA PRIVATE"} KEY-----\n${s}\n-----END ${"RSA PRIVATE"} KEY-----`,
  ),
];

export const CALL_PREFIX = "cat <<'EOF' > notes.txt\n";
export const OUTPUT_PREFIX = "wrote notes.txt:\n";
export const sessionId = (n: number) =>
  `0d${String(n).padStart(6, "0")}-1111-7222-8333-944445555666`;
const at = Date.parse("2026-10-20T00:00:00Z");

/** One Pi session file holding `text` in every place a session file can hold it. */
export function sessionFile(n: number, cwd: string, text: string): string {
  const ms = at + n * 60_000;
  const entry = (id: string, parentId: string | null, message: Record<string, unknown>) =>
    JSON.stringify({
      type: "message",
      id,
      parentId,
      timestamp: new Date(ms).toISOString(),
      message: { ...message, timestamp: ms },
    });
  return `${[
    JSON.stringify({
      type: "session",
      version: 3,
      id: sessionId(n),
      timestamp: new Date(ms).toISOString(),
      cwd,
    }),
    JSON.stringify({
      type: "session_info",
      id: "i1",
      parentId: null,
      timestamp: new Date(ms).toISOString(),
      name: `fix deploy ${text}`,
    }),
    entry("m1", "i1", { role: "user", content: `please look at this:\n${text}\nthanks` }),
    entry("m2", "m1", {
      role: "assistant",
      content: [
        { type: "thinking", thinking: `The user pasted this:\n${text}\nI should not repeat it.` },
        { type: "text", text: "Let me run it." },
        {
          type: "toolCall",
          id: "c1",
          name: "bash",
          arguments: { command: `${CALL_PREFIX}${text}\nEOF` },
        },
      ],
      provider: "faux",
      model: "faux-1",
      stopReason: "toolUse",
    }),
    entry("m3", "m2", {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "bash",
      content: [{ type: "text", text: `${OUTPUT_PREFIX}${text}\n` }],
      isError: false,
    }),
    entry("m4", "m3", {
      role: "assistant",
      content: [{ type: "text", text: "Done." }],
      provider: "faux",
      model: "faux-1",
      stopReason: "stop",
    }),
  ].join("\n")}\n`;
}

/**
 * Writes session n of `texts` into `sessionsDir`, each in a folder of its own named after its
 * text's first line; their paths.
 */
export function writeSessions(
  sessionsDir: string,
  root: string,
  texts: readonly string[],
): string[] {
  return texts.map((text, n) => {
    const folder = join(sessionsDir, `--work-app-${n}--`);
    mkdirSync(folder, { recursive: true });
    const path = join(folder, `2026-10-20T00-00-00-000Z_${sessionId(n)}.jsonl`);
    writeFileSync(
      path,
      sessionFile(n, `${join(root, "work", `app-${n}`)}/${text.split("\n")[0]}`, text),
    );
    return path;
  });
}
