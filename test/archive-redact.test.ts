/**
 * Redaction before anything leaves the machine: each secret shape is replaced with a marker that
 * says what it was, and counted; look-alikes stay as they were. Every secret here is made up.
 */
import { describe, expect, it } from "vitest";
import { redact } from "../src/archive/redact.js";
import { redactSessionFile } from "../src/archive/redact-file.js";

// Made-up secrets, built from pieces so that no scanner takes this file for a leak.
const letters = (n: number, from = "Qw3rTy9Zx7") => Array.from({ length: n }, (_, i) => from[i % from.length]).join("");
const SECRETS: [string, string, string][] = [
  ["AWS access key", `aws configure set aws_access_key_id ${"AKIA"}${"QWERTY7ZX9ABCDEF"}`, "aws-access-key"],
  ["GitHub token", `git clone https://github.com/o/r with ${"ghp_"}${letters(36)}`, "github-token"],
  ["GitHub fine-grained token", `${"github_pat_"}${letters(82)}`, "github-token"],
  ["GitLab token", `${"glpat-"}${letters(20)}`, "gitlab-token"],
  ["Slack token", `${"xoxb-"}1234567890-${letters(24)}`, "slack-token"],
  ["Anthropic key", `key: ${"sk-ant-"}api03-${letters(90)}`, "anthropic-key"],
  ["OpenAI key", `${"sk-proj-"}${letters(48)}`, "openai-key"],
  ["Stripe key", `${"sk_live_"}${letters(24)}`, "stripe-key"],
  ["Google API key", `${"AIza"}${letters(35)}`, "google-api-key"],
  ["npm token", `//registry.npmjs.org/:_authToken=${"npm_"}${letters(36)}`, "npm-token"],
  ["JWT", `token ${"eyJ"}hbGciOiJIUzI1NiJ9.${"eyJ"}zdWIiOiIxMjM0NTY3ODkwIn0.${letters(43)}`, "jwt"],
  ["bearer header", `curl -H "Authorization: Bearer ${letters(40, "a1b2c3d4e5")}" https://api.example.com`, "bearer-token"],
  ["password in a URL", `DATABASE=postgres://app:${"s3cr3t-pass"}@db.internal:5432/app`, "url-password"],
  ["password in a .env file", `DB_PASSWORD=${"hunter2!"}`, "env-secret"],
  ["bare password in a .env file", `PASSWORD=${"hunter2!"}`, "env-secret"],
  ["bare API key in a .env file", `API_KEY=${letters(24)}`, "env-secret"],
  ["bare token, exported", `export TOKEN='${letters(16)}'`, "env-secret"],
  ["exported secret", `export STRIPE_WEBHOOK_SECRET="${letters(20)}"`, "env-secret"],
  ["AWS secret in a .env file", `AWS_SECRET_ACCESS_KEY=${letters(40, "wJalrXUtnFEMI/K7MDENG+bPxRfiCY")}`, "env-secret"],
  ["private key", `-----BEGIN ${"OPENSSH PRIVATE KEY"}-----\nb3BlbnNzaC1rZXktdjEAAAAA${letters(60)}\n-----END ${"OPENSSH PRIVATE KEY"}-----`, "private-key"],
];

const LOOK_ALIKES = [
  "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the deploy",
  "the session 01a0f6b1-2c3d-4e5f-8a9b-0c1d2e3f4a5b was resumed",
  "PASSWORD_MIN_LENGTH=8",
  "TOKEN_TYPE=bearer",
  "Tokens: 150000 of 200000 used",
  "Password: required for every account",
  "OPENAI_API_KEY=$(cat ~/.openai)",
  "API_KEY=<your key here>",
  "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
  "const key = process.env.OPENAI_API_KEY;",
  "the Bearer scheme sends a token in the Authorization header",
  "visit https://user@example.com/path and http://localhost:8080/a:b",
  "sk-learn is the scikit-learn nickname; task-ant-1 is a ticket",
  "AKIA is the prefix of AWS access key ids",
  "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
  "eyJhbGciOiJIUzI1NiJ9 is the header of a JWT, base64url",
];

describe("redact", () => {
  for (const [name, text, what] of SECRETS) {
    it(`removes a ${name}`, () => {
      const result = redact(text);
      expect(result.text).toContain(`[REDACTED:${what}]`);
      expect(result.counts[what]).toBe(1);
      expect(result.total).toBe(1);
    });
  }

  it("keeps what is around a secret: the user and host of a URL, the name of a variable, the word Bearer", () => {
    expect(redact(`postgres://app:${"s3cr3t-pass"}@db.internal:5432/app`).text).toBe("postgres://app:[REDACTED:url-password]@db.internal:5432/app");
    expect(redact(`DB_PASSWORD=${"hunter2!"} # local`).text).toBe("DB_PASSWORD=[REDACTED:env-secret] # local");
    expect(redact(`Authorization: Bearer ${letters(40)}`).text).toBe("Authorization: Bearer [REDACTED:bearer-token]");
  });

  it("counts a secret once when a later rule meets its marker", () => {
    const result = redact(`GITHUB_TOKEN=${"ghp_"}${letters(36)}\nAuthorization: Bearer ${"ghp_"}${letters(36)}`);
    expect(result.text).toBe("GITHUB_TOKEN=[REDACTED:github-token]\nAuthorization: Bearer [REDACTED:github-token]");
    expect(result.counts).toEqual({ "github-token": 2 });
  });

  it("leaves look-alikes as they were", () => {
    for (const text of LOOK_ALIKES) expect(redact(text), text).toEqual({ text, counts: {}, total: 0 });
  });

  it("redacts a session file kept in the archive string by string: secrets anywhere in an entry, other lines byte for byte", () => {
    const key = `-----BEGIN ${"PRIVATE"} KEY-----\nMIIEvQ${letters(40)}\n-----END ${"PRIVATE"} KEY-----`;
    const call = { type: "message", id: "m2", message: { role: "assistant", content: [{ type: "toolCall", name: "bash", arguments: { command: `export OPENAI_API_KEY=${letters(20)}\ncat id_rsa` } }] } };
    const lines = [
      // Spacing JSON.stringify would not write: a line with nothing to redact keeps it.
      `{"type": "session", "id":"s1",  "cwd":"/home/ada/app"}`,
      JSON.stringify(call),
      JSON.stringify({ type: "message", id: "m3", message: { role: "toolResult", content: [{ type: "text", text: key }] } }),
      `not json, with ${"ghp_"}${letters(36)}`,
      "",
    ];
    const kept = redactSessionFile(lines.join("\n"));
    const out = kept.text.split("\n");
    expect(out[0]).toBe(lines[0]);
    expect(JSON.parse(out[1]!).message.content[0].arguments.command).toBe("export OPENAI_API_KEY=[REDACTED:env-secret]\ncat id_rsa");
    expect(JSON.parse(out[2]!).message.content[0].text).toBe("[REDACTED:private-key]");
    expect(out[3]).toBe("not json, with [REDACTED:github-token]");
    expect(out[4]).toBe("");
    expect(kept.counts).toEqual({ "env-secret": 1, "private-key": 1, "github-token": 1 });
    expect(kept.total).toBe(3);
    const clean = `${JSON.stringify({ type: "message", id: "m4", message: { role: "user", content: "nothing secret, ünïcode \u2028 kept" } })}\n`;
    expect(redactSessionFile(clean)).toEqual({ text: clean, counts: {}, total: 0 });
  });
});
