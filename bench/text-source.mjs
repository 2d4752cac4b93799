// Builds the pool of real text that bench/corpus.mjs draws from, offline and deterministically.
//
//   prose    ← Markdown files (README, docs) and the JSDoc comments of `.d.ts` files under the
//              repo's node_modules (optionally also /usr/share/doc); split into paragraphs and
//              sentences.
//   code     ← `.js` / `.mjs` / `.cjs` / `.ts` / `.json` files under node_modules (tool outputs of
//              `read` / `bash`, edit arguments, code blocks in answers).
//   snippets ← fenced code blocks found in the Markdown files.
//
// Files are walked in sorted (code-unit) order, so the same files always give the same pool. The
// pool is cached in `<repo>/.cache/bench/text-pool.json`, keyed by a hash of the file list
// (relative path + size of every input file) and POOL_VERSION.
//
// Plain Node >= 20, standard library only.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

/** Bump when the extraction logic changes, so stale caches are rebuilt. */
export const POOL_VERSION = 3;

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_CACHE_FILE = path.join(REPO_ROOT, ".cache", "bench", "text-pool.json");
/**
 * node_modules only: it is pinned by package-lock.json, so the pool is the same on every machine.
 */
export const DEFAULT_ROOTS = [path.join(REPO_ROOT, "node_modules")];
/**
 * The packages of node_modules the pool reads, listed once: a dependency added later does not
 * move the pool (and so every bench and eval corpus). Regenerate it only on purpose.
 */
const POOL_PACKAGES = new Set(
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "bench", "text-pool-packages.json"), "utf8")),
);
export const SYSTEM_DOC_ROOT = "/usr/share/doc";

const MAX_CODE_FILE = 256 * 1024; // longer code files are cut into chunks at line boundaries
const MAX_CODE_PARTS = 8; // at most this many chunks of one file, so huge bundles do not dominate
const MIN_CODE_FILE = 300;
const MAX_MD_FILE = 2 * 1024 * 1024;

// Directories never worth reading: non-English TypeScript diagnostics, caches, VCS. Tool caches
// inside node_modules (`.vite/vitest/…/results.json` is rewritten by every test run) must stay out:
// they would change the pool, and so every corpus, after each `vitest run`.
const SKIP_DIRS = new Set([
  ".git",
  ".cache",
  ".bin",
  ".vite",
  ".vitest",
  "cs",
  "de",
  "es",
  "fr",
  "it",
  "ja",
  "ko",
  "pl",
  "pt-br",
  "ru",
  "tr",
  "zh-cn",
  "zh-tw",
]);

function classify(name) {
  const lower = name.toLowerCase();
  if (lower.startsWith(".")) return null; // .package-lock.json and other tool state
  if (/^(license|licence|copying|notice)([.-]|$)/.test(lower)) return null; // legal boilerplate
  if (lower.endsWith(".min.js") || lower.endsWith(".map") || lower === "package-lock.json")
    return null;
  if (lower.endsWith(".md") || lower.endsWith(".markdown") || lower.endsWith(".md.gz")) return "md";
  if (lower.endsWith(".d.ts") || lower.endsWith(".d.mts") || lower.endsWith(".d.cts")) return "dts";
  if (/\.(js|mjs|cjs|ts|mts|cts|json)$/.test(lower)) return "code";
  return null;
}

/** Sorted, recursive listing of the input files under `root` (symlinks are not followed). */
function listFiles(root) {
  const out = [];
  const pinned = root === DEFAULT_ROOTS[0];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (pinned && !packageListed(path.relative(root, p).split(path.sep).join("/"))) continue;
        if (!SKIP_DIRS.has(e.name)) walk(p);
      } else if (e.isFile()) {
        const kind = classify(e.name);
        if (!kind) continue;
        const size = fs.statSync(p).size;
        if (size === 0) continue;
        out.push({ abs: p, rel: path.relative(root, p).split(path.sep).join("/"), kind, size });
      }
    }
  };
  walk(root);
  return out;
}

/** Whether a folder of the default root is (or holds, or is inside) a listed package. */
function packageListed(rel) {
  const parts = rel.split("/");
  if (parts[0].startsWith("@"))
    return parts.length === 1 || POOL_PACKAGES.has(`${parts[0]}/${parts[1]}`);
  return POOL_PACKAGES.has(parts[0]);
}

function readText(file) {
  let buf = fs.readFileSync(file.abs);
  if (file.abs.endsWith(".gz")) {
    try {
      buf = zlib.gunzipSync(buf);
    } catch {
      return null;
    }
  }
  if (buf.includes(0)) return null; // binary
  return buf.toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// Prose extraction

const SENTENCE_SPLIT = /(?<=[.!?])\s+(?=[A-Z`"'(\[])/;

function cleanInline(s) {
  return s
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ") // images
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1") // links → text
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1") // reference links
    .replace(/\{@link(?:code|plain)?\s+([^}|\s]+)(?:[|\s]([^}]*))?\}/g, (_, a, b) =>
      b ? b.trim() : a,
    )
    .replace(/<\/?[a-zA-Z][^>]*>/g, " ") // html tags
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/__([^_]+)__/g, "$1")
    .replace(/(^|\s)[*_]([^*_\s][^*_]*)[*_](?=\s|[.,;:!?)]|$)/g, "$1$2")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ")
    .trim();
}

function looksLikeProse(p) {
  if (p.length < 40) return false;
  const words = p.split(" ");
  if (words.length < 6) return false;
  let letters = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 32) letters++;
  }
  if (letters / p.length < 0.75) return false;
  // at least a few ordinary lowercase words, so tables of identifiers are dropped
  let plain = 0;
  for (const w of words) if (/^[a-z]{2,}[,.;:]?$/.test(w)) plain++;
  return plain / words.length >= 0.45;
}

/** Markdown → { paragraphs, snippets }. */
function extractMarkdown(text) {
  const paragraphs = [];
  const snippets = [];
  text = text.replace(/\r\n?/g, "\n").replace(/^---\n[\s\S]*?\n---\n/, "");
  const lines = text.split("\n");
  let para = [];
  const flush = () => {
    if (para.length) {
      const p = cleanInline(para.join(" "));
      if (looksLikeProse(p)) paragraphs.push(p);
      para = [];
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
    if (fence) {
      flush();
      const close = fence[1];
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(close)) body.push(lines[i++]);
      const code = body.join("\n");
      if (code.trim().length >= 40 && code.length <= 4000)
        snippets.push({ lang: fence[2] || "", text: code });
      continue;
    }
    const t = line.trim();
    if (
      !t ||
      /^#{1,6}\s/.test(t) ||
      t.startsWith("|") ||
      /^[-=*_]{3,}$/.test(t) ||
      t.startsWith("    ") ||
      /^\[[^\]]+\]:/.test(t)
    ) {
      flush();
      continue;
    }
    const item = /^([-*+]|\d+[.)])\s+(.*)$/.exec(t);
    if (item) {
      flush();
      para.push(item[2]);
      continue;
    }
    para.push(t.replace(/^>\s?/, ""));
  }
  flush();
  return { paragraphs, snippets };
}

/** JSDoc comments of a declaration file → paragraphs. */
function extractJsDoc(text) {
  const paragraphs = [];
  for (const m of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const body = m[1]
      .split("\n")
      .map((l) => l.replace(/^\s*\*\s?/, ""))
      .join("\n")
      .replace(/```[\s\S]*?```/g, "\n\n")
      .replace(/^\s*@\w+[\s\S]*?(?=^\s*@|$(?![\s\S]))/gm, "\n\n"); // block tags are not prose
    for (const chunk of body.split(/\n\s*\n/)) {
      const p = cleanInline(chunk);
      if (looksLikeProse(p)) paragraphs.push(p);
    }
  }
  return paragraphs;
}

function splitSentences(p) {
  const out = [];
  for (const s of p.split(SENTENCE_SPLIT)) {
    const t = s.trim();
    if (t.length >= 20 && t.length <= 400 && t.split(" ").length >= 4 && /[a-z]/.test(t))
      out.push(t);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Code extraction

/**
 * Code file → up to MAX_CODE_PARTS chunks of at most MAX_CODE_FILE chars, cut at line boundaries,
 * each `{ text, startLine }` (0-based line of the chunk in the file). Minified files give [].
 */
function splitCode(text) {
  text = text.replace(/\r\n?/g, "\n");
  const lines = text.split("\n");
  if (text.length / lines.length > 160) return []; // minified or generated blob
  let long = 0;
  for (const l of lines) if (l.length > 400) long++;
  if (long > 2 && long / lines.length > 0.002) return [];
  const parts = [];
  let start = 0;
  let line = 0;
  while (start < text.length && parts.length < MAX_CODE_PARTS) {
    let end = text.length;
    if (end - start > MAX_CODE_FILE) {
      const cut = text.lastIndexOf("\n", start + MAX_CODE_FILE);
      end = cut > start ? cut + 1 : start + MAX_CODE_FILE;
    }
    const chunk = text.slice(start, end);
    parts.push({ text: chunk, startLine: line });
    line += chunk.split("\n").length - 1;
    start = end;
  }
  return parts;
}

// ---------------------------------------------------------------------------------------------

function poolKey(roots, filesByRoot) {
  const h = createHash("sha256");
  h.update(`recall-text-pool v${POOL_VERSION}\n`);
  roots.forEach((root, i) => {
    h.update(`root ${i}\n`);
    for (const f of filesByRoot[i]) h.update(`${f.kind}\t${f.rel}\t${f.size}\n`);
  });
  return h.digest("hex").slice(0, 16);
}

/**
 * Returns the text pool:
 *   { version, key, roots, paragraphs: string[], sentences: string[],
 *     snippets: {lang, text}[], code: {path, startLine, text}[] }
 * `path` of a code file is relative to its root (e.g. "vite/dist/node/index.js"); a big file gives
 * several chunks, `startLine` being the 0-based line where the chunk starts.
 *
 * @param {{roots?: string[], cacheFile?: string|null, log?: (msg: string) => void}} [opts]
 */
export function loadTextPool(opts = {}) {
  const roots = (opts.roots && opts.roots.length ? opts.roots : DEFAULT_ROOTS).map((r) =>
    path.resolve(r),
  );
  const isDefault =
    roots.length === DEFAULT_ROOTS.length && roots.every((r, i) => r === DEFAULT_ROOTS[i]);
  // other root sets get their own cache file, so switching back and forth does not rebuild
  const cacheFile =
    opts.cacheFile !== undefined
      ? opts.cacheFile
      : isDefault
        ? DEFAULT_CACHE_FILE
        : DEFAULT_CACHE_FILE.replace(
            /\.json$/,
            `-${createHash("sha256").update(roots.join("\n")).digest("hex").slice(0, 8)}.json`,
          );
  const log = opts.log ?? (() => {});
  const filesByRoot = roots.map((r) => listFiles(r));
  const key = poolKey(roots, filesByRoot);

  if (cacheFile && fs.existsSync(cacheFile)) {
    try {
      const cached = JSON.parse(fs.readFileSync(cacheFile, "utf8"));
      if (cached.version === POOL_VERSION && cached.key === key) return cached;
    } catch {
      // rebuild below
    }
  }

  const t0 = Date.now();
  const paragraphs = [];
  const snippets = [];
  const code = [];
  const seenPara = new Set();
  const seenSnippet = new Set();
  const addPara = (p) => {
    if (!seenPara.has(p)) {
      seenPara.add(p);
      paragraphs.push(p);
    }
  };
  roots.forEach((root, ri) => {
    const prefix = roots.length > 1 && ri > 0 ? `${path.basename(root)}/` : "";
    for (const f of filesByRoot[ri]) {
      if (f.kind === "md" && f.size > MAX_MD_FILE) continue;
      const text = readText(f);
      if (text == null) continue;
      if (f.kind === "md") {
        const md = extractMarkdown(text);
        md.paragraphs.forEach(addPara);
        for (const s of md.snippets) {
          if (!seenSnippet.has(s.text)) {
            seenSnippet.add(s.text);
            snippets.push(s);
          }
        }
        continue;
      }
      if (f.kind === "dts") extractJsDoc(text).forEach(addPara);
      if (f.size < MIN_CODE_FILE) continue;
      for (const part of splitCode(text))
        code.push({ path: prefix + f.rel, startLine: part.startLine, text: part.text });
    }
  });

  const sentences = [];
  const seenSentence = new Set();
  for (const p of paragraphs) {
    for (const s of splitSentences(p)) {
      if (!seenSentence.has(s)) {
        seenSentence.add(s);
        sentences.push(s);
      }
    }
  }

  const pool = {
    version: POOL_VERSION,
    key,
    roots,
    files: filesByRoot.reduce((n, l) => n + l.length, 0),
    paragraphs,
    sentences,
    snippets,
    code,
  };
  log(
    `text pool: ${paragraphs.length} paragraphs, ${sentences.length} sentences, ${snippets.length} snippets, ${code.length} code files (built in ${Date.now() - t0} ms)`,
  );
  if (cacheFile) {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(pool));
    fs.renameSync(tmp, cacheFile);
  }
  return pool;
}

// CLI: `node bench/text-source.mjs [--system-docs] [--no-cache]` prints pool statistics.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const roots = [...DEFAULT_ROOTS];
  if (args.includes("--system-docs")) roots.push(SYSTEM_DOC_ROOT);
  const t0 = Date.now();
  const pool = loadTextPool({
    roots,
    cacheFile: args.includes("--no-cache") ? null : DEFAULT_CACHE_FILE,
    log: (m) => console.error(m),
  });
  const codeBytes = pool.code.reduce((n, c) => n + c.text.length, 0);
  const proseBytes = pool.paragraphs.reduce((n, p) => n + p.length, 0);
  console.log(
    JSON.stringify(
      {
        key: pool.key,
        roots: pool.roots,
        files: pool.files,
        paragraphs: pool.paragraphs.length,
        proseChars: proseBytes,
        sentences: pool.sentences.length,
        snippets: pool.snippets.length,
        codeFiles: pool.code.length,
        codeChars: codeBytes,
        ms: Date.now() - t0,
      },
      null,
      2,
    ),
  );
}
