/**
 * recall's own secret rules, beside the maintained set (secret-rules.ts): the shapes a session
 * holds that a token rule cannot know, because the secret has no shape of its own and only its
 * context says what it is — `KEY=value`, `key: value`, `"key": "value"`, `KEY="quoted words"`
 * anywhere in a line; passwords in URLs and on command lines (`mysql -pSECRET`, `--password x`,
 * `curl -u user:pass`); `Authorization: Basic …` and `Bearer …`; an AWS secret access key named
 * in prose; a private key, to the end of the text when its END line was cut off — and a few token
 * shapes the maintained set only takes in their newest, complete form (OpenAI, Anthropic, Google,
 * Hugging Face keys, JWTs).
 *
 * Code is not a secret: a name that says secret given a call, an identifier or a path
 * (`tokenCache = createCache()`, `password = self.password`, `key: string`) stays, as does prose
 * that only names one ("Tokens: 150000", "Password: required").
 */
import type { Found } from "./secret-rules.js";

interface Shape {
  kind: string;
  pattern: RegExp;
  /**
   * The secret in a match (default the whole match), and its kind if not the shape's; a rule may
   * decline a match.
   */
  secret?: (match: RegExpExecArray) => Span | undefined;
}

type Span = [start: number, end: number, kind?: string];

/** The span of capture group `group`, if it took part. */
function group(match: RegExpExecArray, index: number, kind?: string): Span | undefined {
  const span = match.indices?.[index];
  if (!span) return undefined;
  return kind ? [span[0], span[1], kind] : [span[0], span[1]];
}

const byGroup = (index: number) => (match: RegExpExecArray) => group(match, index);

/**
 * Words that, ending a name, make its value a password (any value counts) or another secret (a
 * value that looks chosen).
 */
const PASSWORD_WORDS = new Set(["password", "passwd", "pwd", "pass", "passphrase", "passcode"]);
const SECRET_WORDS = new Set([
  "token",
  "secret",
  "credential",
  "credentials",
  "apikey",
  "auth",
  "accesskey",
  "secretkey",
  "privatekey",
]);
/**
 * `<word>_key` names a secret for these words (`API_KEY`, `AccountKey`, `x-api-key`), not for
 * others (`sort_key`).
 */
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "secret",
  "private",
  "encryption",
  "signing",
  "master",
  "account",
  "shared",
  "client",
  "app",
  "subscription",
  "storage",
  "service",
  "license",
  "auth",
  "webhook",
  "deploy",
]);

type NameKind = "password" | "secret";

/**
 * Whether a name is a secret's, by its last word (`DB_PASSWORD`, `apiKey`, `_authToken`,
 * `X-Api-Key`), and which kind.
 */
export function secretName(name: string): NameKind | undefined {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words.at(-1);
  if (!last) return undefined;
  if (PASSWORD_WORDS.has(last) || /(?:password|passwd)$/.test(last)) return "password";
  if (SECRET_WORDS.has(last) || (/(?:token|secret|apikey)$/.test(last) && last !== "tokens"))
    return "secret";
  if (last === "key" && KEY_QUALIFIERS.has(words.at(-2) ?? "")) return "secret";
  return undefined;
}

/**
 * Values that stand for a secret without being one: references, templates, placeholders, markers.
 */
const REFERENCE = /^(?:\$|%|<|\{\{|\[REDACTED|\*+$|x+$|\.+$|-+$|_+$)|\$\{|\{\{/i;
const PLACEHOLDER =
  /^(?:changeme|change-me|your[-_ ].*|example|placeholder|redacted|secret|password|token|none|null|nil|true|false|undefined|required|optional|string|str|bool|boolean|int|number|yes|no|on|off|empty|hidden|masked)$/i;
/**
 * An identifier or a property path: code, not a value (`createCache`, `self.password`,
 * `!result?.pass`).
 */
const IDENTIFIER = /^!{0,2}[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*$/;
/**
 * A quoted name rather than a value: an enum's, a constant's, an option's (`"STRING_VALUE"`,
 * `"invalid_token"`, an option's name).
 */
const NAME_LIKE = /^[-?@#.:]{0,2}[A-Za-z][A-Za-z_-]*$/;
/** A path to a file (`~/.ssh/id_rsa`, `./secrets.json`): where a secret is, not the secret. */
const PATH = /^(?:~|\.{1,2})?\/[\w.\/-]*$/;
const NUMBER = /^(?:0x[\da-f]+|[\d.,:_-]+)$/i;

/**
 * Random rather than named: long hex, or long, of both cases, with digits in three places or more
 * (`Qw3rTy9Zx7…`; not `findX509OAuthError`, whose digits are one number).
 */
const RANDOM = (value: string) =>
  /^[0-9a-f]{32,}$/i.test(value) ||
  (value.length >= 20 &&
    /^\w+$/.test(value) &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    (value.match(/\d+/g)?.length ?? 0) >= 3);

/**
 * Whether the value given to a secret's name is a secret. Quoted, it is data: words are allowed
 * for a password or where the value is data by its place (`NAME="…"` of a shell, a header);
 * otherwise it must look chosen. Unquoted, it must not be code (a call, an identifier, a property
 * path), a path, a number or a placeholder — unless its place says it is data, or it looks random.
 */
export function secretValue(
  value: string,
  quoted: boolean,
  name: NameKind,
  data: boolean,
): boolean {
  const trimmed = value.trim();
  if (
    !trimmed ||
    REFERENCE.test(trimmed) ||
    PLACEHOLDER.test(trimmed) ||
    /(?:\.\.\.|…)$/.test(trimmed)
  )
    return false;
  if (quoted && (name === "password" || data)) return trimmed.length >= 4;
  if (/\s/.test(trimmed)) return false;
  if (NUMBER.test(trimmed)) return name === "password" && /^\d{4,}$/.test(trimmed);
  if (quoted)
    return (
      trimmed.length >= 8 &&
      !NAME_LIKE.test(trimmed) &&
      (/[\d\W_]/.test(trimmed) || trimmed.length >= 16)
    );
  // Code: a call, an index, a generic type, an object, an escape in a string literal.
  if (/[()[\]{}<>\\]/.test(trimmed) || PATH.test(trimmed)) return false;
  if (IDENTIFIER.test(trimmed))
    return RANDOM(trimmed) || (data && !trimmed.includes(".") && trimmed.length >= 8);
  return trimmed.length >= (name === "password" ? 4 : 8);
}

/** An environment variable's assignment: an upper-case name, `=` with no space around it. */
const ENV_NAME = /^(?:export\s+)?[A-Z][A-Z0-9_]*$/;

/**
 * `name = value`, `name: value`, `"name": "value"`, `name := value`, `name => value`,
 * `--name=value`, anywhere in a line. Groups: 1 the name's quote, 2 the name, 3 the separator, 4 a
 * double-quoted value, 5 a single-quoted one, 6 an unquoted one.
 */
const ASSIGNMENT =
  /(?<![\w$.-])(["']?)(-{0,2}[A-Za-z_][\w.-]*)\1[ \t]*(?<![=!<>])(:=|=>|=|:)(?![=:])[ \t]*(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s"'\x60,;]+))/dy;

function assignment(match: RegExpExecArray): Span | undefined {
  const [, , name, separator, doubled, single, bare] = match;
  const kind = secretName(name!.replace(/^-+/, ""));
  if (!kind) return undefined;
  const quoted = doubled !== undefined || single !== undefined;
  const value = doubled ?? single ?? bare ?? "";
  // Data by its place: a shell's or an .env file's `NAME=value`, a command line's `--name=value`, a
  // header's `X-Name: value`.
  const data =
    (separator === "=" && ENV_NAME.test(name!) && !/\s=/.test(match[0])) ||
    (separator === "=" && !match[1] && name!.startsWith("--")) ||
    (separator === ":" && /^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(name!));
  if (!secretValue(value, quoted, kind, data)) return undefined;
  return group(match, doubled !== undefined ? 4 : single !== undefined ? 5 : 6, kind);
}

/** A command line's password or token option and its value, apart (double dash, `password x`). */
const OPTION =
  /(?<!\S)--(?:[a-z0-9]+-)*(password|passwd|passphrase|token|secret|api-?key|access-key|secret-key)[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'\x60;|&]+))/dg;

function option(match: RegExpExecArray): Span | undefined {
  const [, word, doubled, single, bare] = match;
  const kind: NameKind = /pass/.test(word!) ? "password" : "secret";
  const quoted = doubled !== undefined || single !== undefined;
  if (!secretValue(doubled ?? single ?? bare ?? "", quoted, kind, true)) return undefined;
  return group(match, doubled !== undefined ? 2 : single !== undefined ? 3 : 4, kind);
}

/**
 * `Basic <base64 of user:password>`: decoded, it must hold a colon, or it is a word after "Basic".
 */
function basicCredentials(match: RegExpExecArray): Span | undefined {
  const decoded = Buffer.from(match[1]!, "base64").toString("latin1");
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded) ? group(match, 1) : undefined;
}

/** A 40-character AWS secret access key: mixed case with a digit, not a hash. */
function awsSecret(match: RegExpExecArray): Span | undefined {
  const key = match[1]!;
  return /[a-z]/.test(key) && /[A-Z]/.test(key) && /\d/.test(key) ? group(match, 1) : undefined;
}

/** A URL's password, not a reference (`$PASS`) or a marker. */
function urlPassword(match: RegExpExecArray): Span | undefined {
  return REFERENCE.test(match[1]!) ? undefined : group(match, 1);
}

/**
 * Where an assignment to a secret's name may be: the end of such a name and its separator. The
 * assignment is then read from the name's start (`ASSIGNMENT` is sticky), so that the many other
 * assignments of code are never matched at all.
 */
const SECRET_NAME_END =
  /(?:pass(?:wo?rd|wd|phrase|code)?|pwd|token|secret|credentials?|key|auth)["']?[ \t]*(?::=|=>|=|:)(?![=:])/gi;
const NAME_CHAR = /[\w.-]/;

function findAssignments(text: string, found: Found[]): void {
  SECRET_NAME_END.lastIndex = 0;
  for (let end = SECRET_NAME_END.exec(text); end; end = SECRET_NAME_END.exec(text)) {
    let start = end.index;
    while (start > 0 && NAME_CHAR.test(text[start - 1]!)) start--;
    // A quoted name (`"password": …`) from its quote; a name after a quote that does not close it
    // (`"X-Api-Key: …`) from itself.
    let match: RegExpExecArray | null = null;
    for (const from of start > 0 && /["']/.test(text[start - 1]!) ? [start - 1, start] : [start]) {
      ASSIGNMENT.lastIndex = from;
      match ??= ASSIGNMENT.exec(text);
    }
    const span = match ? assignment(match) : undefined;
    if (span) found.push({ start: span[0], end: span[1], kind: span[2]! });
  }
}

/**
 * Each shape with what a text must hold for it to match (tested first: a substring test costs far
 * less than a match).
 */
const SHAPES: (Shape & { hint: string | RegExp })[] = [
  // Unterminated (cut, or pasted in part): the rest of the text is the key.
  {
    kind: "private-key",
    hint: "PRIVATE KEY",
    pattern:
      /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)/g,
  },
  { kind: "anthropic-key", hint: "sk-ant-", pattern: /\bsk-ant-[a-z0-9]+-[A-Za-z0-9_-]{20,}/g },
  {
    kind: "openai-key",
    hint: "sk-",
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g,
  },
  // Slack's app tokens end with 64 hex digits the maintained rule's last part (at most 40) does not
  // take.
  { kind: "slack-token", hint: /xox|xapp/, pattern: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g },
  // The maintained rule takes access key ids only with its account-id rule, which costs more than
  // all of these.
  {
    kind: "aws-access-key-id",
    hint: /A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA/,
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b/g,
  },
  { kind: "google-api-key", hint: "AIza", pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: "huggingface-token", hint: "hf_", pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  {
    kind: "jwt",
    hint: "eyJ",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g,
  },
  {
    kind: "bearer-token",
    hint: "Bearer",
    pattern: /\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)/dg,
    secret: byGroup(1),
  },
  {
    kind: "basic-auth",
    hint: "Basic",
    pattern: /\bBasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![\w+/=])/dg,
    secret: basicCredentials,
  },
  // scheme://user:password@host, the user possibly empty (redis://:pass@host), the password
  // possibly holding @ (the last @ before the host ends it).
  {
    kind: "url-password",
    hint: "://",
    pattern: /:\/\/[^\s/:@]*:([^\s/]*[^\s/@])@(?=[^\s/@]*[\w\]])/dg,
    secret: urlPassword,
  },
  {
    kind: "azure-sas-signature",
    hint: "sig=",
    pattern: /[?&]sig=([\w%+/=-]{20,})/dg,
    secret: byGroup(1),
  },
  {
    kind: "aws-secret-access-key",
    hint: /secret|aws/i,
    pattern:
      /\b(?:secret|aws)\b[^\n]{0,80}?(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    secret: awsSecret,
  },
  {
    kind: "password",
    hint: /mysql|mariadb/,
    pattern:
      /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb)\b[^\n|;&]*?[ \t]-p(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'\x60;|&]+))/dg,
    secret: (m) => group(m, 1) ?? group(m, 2) ?? group(m, 3),
  },
  {
    kind: "password",
    hint: /-u|--user/,
    pattern: /(?<!\S)(?:-u|--user)[ \t]+["']?[^\s:"']+:([^\s"']+)/dg,
    secret: urlPassword,
  },
  { kind: "secret", hint: "--", pattern: OPTION, secret: option },
];

const holds = (text: string, hint: string | RegExp) =>
  typeof hint === "string" ? text.includes(hint) : hint.test(text);

/** The secrets recall's own rules find in `text`. */
export function findShapes(text: string): Found[] {
  const found: Found[] = [];
  for (const shape of SHAPES) {
    if (!holds(text, shape.hint)) continue;
    shape.pattern.lastIndex = 0;
    for (let match = shape.pattern.exec(text); match; match = shape.pattern.exec(text)) {
      if (match[0].length === 0) shape.pattern.lastIndex++;
      const span: Span | undefined = shape.secret
        ? shape.secret(match)
        : [match.index, match.index + match[0].length];
      if (span && span[1] > span[0])
        found.push({ start: span[0], end: span[1], kind: span[2] ?? shape.kind });
    }
  }
  findAssignments(text, found);
  return found;
}
