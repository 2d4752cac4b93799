/**
 * Redaction of secrets in text before it leaves the machine: each secret is replaced with
 * `[REDACTED:<what>]`, and counted. The rules are recall's own (the maintained rule sets found on
 * npm need Node ≥ 22, recall runs on 20). They aim at shapes with a recognizable prefix or
 * context, so that ordinary text (hashes, ids, placeholders) stays as it was.
 */

export interface Redacted {
  text: string;
  /** Secrets removed, by what they were. */
  counts: Record<string, number>;
  total: number;
}

interface Rule {
  /** What the marker says was removed. */
  what: string;
  pattern: RegExp;
  /** The replacement of one match; by default the whole match becomes the marker. */
  replace?: (marker: string, ...groups: string[]) => string;
}

const marker = (what: string) => `[REDACTED:${what}]`;

/** The words that make a `KEY=value` line's name a secret's. */
const SECRET_NAME = "(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)";

/** Values of `KEY=value` lines that are not secrets: references, placeholders, markers. */
const NOT_A_VALUE = /^(?:\$|<|\[REDACTED|%|\{\{|x+$|\*+$|changeme$|your[-_]|example)/i;

/** A value that looks chosen rather than a word: long, or holding a digit or a symbol. */
function secretValue(value: string): boolean {
  if (NOT_A_VALUE.test(value)) return false;
  return value.length >= 12 || (value.length >= 6 && /[\d\W_]/.test(value));
}

const RULES: Rule[] = [
  { what: "private-key", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----/g },
  { what: "aws-access-key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { what: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,})\b/g },
  { what: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { what: "slack-token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { what: "anthropic-key", pattern: /\bsk-ant-[a-z0-9]+-[A-Za-z0-9_-]{20,}/g },
  { what: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g },
  { what: "stripe-key", pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { what: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { what: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { what: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g },
  {
    what: "bearer-token",
    pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (m, prefix) => `${prefix}${m}`,
  },
  {
    what: "url-password",
    // scheme://user:password@host: the password goes, the user and host stay.
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)([^\s/@]+)@/gi,
    replace: (m, start, password) => (password!.startsWith("[REDACTED") ? `${start}${password}@` : `${start}${m}@`),
  },
  {
    what: "env-secret",
    // A line of a .env file or a shell: NAME=value where the name says it is a secret. A name that
    // begins with the secret word (`PASSWORD=…`) takes `=` only, so that prose such as "Tokens:
    // 150000" stays.
    pattern: new RegExp(`^(\\s*(?:export\\s+)?(?:[A-Za-z_][A-Za-z0-9_]*${SECRET_NAME}[A-Za-z0-9_]*\\s*[=:]|${SECRET_NAME}[A-Za-z0-9_]*\\s*=)\\s*)(["']?)([^\\s"'#]+)\\2`, "gim"),
    replace: (m, start, quote, value) => (secretValue(value!) ? `${start}${quote}${m}${quote}` : `${start}${quote}${value}${quote}`),
  },
];

export function redact(text: string): Redacted {
  const counts: Record<string, number> = {};
  let total = 0;
  let result = text;
  for (const rule of RULES) {
    const label = marker(rule.what);
    result = result.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      const groups = rest.slice(0, -2) as string[];
      const replaced = rule.replace ? rule.replace(label, ...groups) : label;
      if (replaced !== match) {
        counts[rule.what] = (counts[rule.what] ?? 0) + 1;
        total++;
      }
      return replaced;
    });
  }
  return { text: result, counts, total };
}
