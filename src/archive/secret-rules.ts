/**
 * The maintained rule set recall redacts by: secretlint's recommended rules
 * (@secretlint/secretlint-rule-preset-recommend), run by secretlint's own core through its public
 * API (`lintSource`), each rule registered from the preset's `rules`.
 *
 * Why secretlint and not gitleaks' rules: it is a JavaScript library with a public API that runs in
 * recall's process, kept by its authors (new token formats arrive as releases), and most of its
 * rules check a token's own shape (a prefix, a checksum, a key's structure), so ordinary text is
 * not taken for a secret. gitleaks is a Go program: its rules are a data file of Go regular
 * expressions that recall would have to copy, or a binary each user would have to install.
 *
 * Node: 12.0.0 is the newest release that declares Node ≥ 20, as recall does (13.x declares 22).
 * test/archive-redact.test.ts runs every shape through its rules on the Node the tests run on; the
 * version is pinned so that no release reaches users before that test ran.
 *
 * The comment filter is left out of the preset: text holding `secretlint-disable` would otherwise
 * stop the redaction of the text after it, and session text is untrusted. (The AWS rule's access
 * key ids come with its account-id rule, the slowest of all: recall's own rules take the ids.)
 */
import { lintSource } from "@secretlint/core";
import { rules } from "@secretlint/secretlint-rule-preset-recommend";

/** A secret found: [start, end) in the text, and what it is. */
export interface Found {
  start: number;
  end: number;
  kind: string;
}

type Config = Parameters<typeof lintSource>[0]["options"]["config"];

const LEFT_OUT = new Set(["@secretlint/secretlint-rule-filter-comments"]);
const CONFIG: Config = {
  rules: rules
    .filter((rule) => !LEFT_OUT.has(rule.meta.id))
    .map((rule) => ({ id: rule.meta.id, rule })),
};

/**
 * A rule's message id as a marker's kind: `GITHUB_TOKEN` → `github-token`, `AWSSecretAccessKey` →
 * `aws-secret-access-key`.
 */
export function kindOf(messageId: string): string {
  return messageId
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/_/g, "-")
    .toLowerCase();
}

/** The secrets secretlint's rules find in `text`. */
export async function findSecrets(text: string): Promise<Found[]> {
  const result = await lintSource({
    source: { filePath: "session.txt", content: text, contentType: "text" },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  return result.messages
    .filter((m) => m.type === "message")
    .map((m) => ({ start: m.range[0], end: m.range[1], kind: kindOf(m.messageId) }));
}
