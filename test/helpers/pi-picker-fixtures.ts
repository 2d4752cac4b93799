/** Search hits and themes for the picker's unit tests: no Pi, no index. */
import type { SearchHit } from "../../src/answers/search-hit.js";
import type { PickerTheme } from "../../src/pi/picker/render.js";

/** [start, end) UTF-8 byte offsets of each occurrence of `words` in `text`. */
export function byteSpans(text: string, words: string[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const word of words) {
    let from = 0;
    for (;;) {
      const at = text.indexOf(word, from);
      if (at === -1) break;
      const start = Buffer.byteLength(text.slice(0, at), "utf8");
      spans.push([start, start + Buffer.byteLength(word, "utf8")]);
      from = at + word.length;
    }
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

let counter = 0;

export function hit(overrides: Partial<SearchHit> & { words?: string[] } = {}): SearchHit {
  counter++;
  const snippet =
    overrides.snippet ??
    "Done, the staging deploy is green again after the kubectl rollout restart.";
  const { words, ...rest } = overrides;
  return {
    id: `01a0f6b1-0000-7000-8000-${String(counter).padStart(12, "0")}`,
    path: `/home/dev/.pi/agent/sessions/--home-dev-shop-api--/2026-10-01T09-00-00-000Z_${counter}.jsonl`,
    cwd: "/home/dev/shop-api",
    project: "github.com/dev/shop-api",
    name: "Fix staging deploy: readiness probe and nginx ingress",
    created: "2026-10-01T09:00:00.000Z",
    modified: "2026-10-01T09:30:00.000Z",
    messageCount: 6,
    firstMessage: "The staging deploy is failing the readiness probe, can you look?",
    parent: null,
    tags: ["k8s"],
    score: 1,
    message: {
      kind: "conversation",
      tool: null,
      role: "assistant",
      index: 3,
      entryId: "abcd1234",
      timestamp: "2026-10-01T09:30:00.000Z",
    },
    snippet,
    spans: byteSpans(snippet, words ?? ["staging", "deploy"]),
    ...rest,
  };
}

/** Hits whose text is not ASCII: accents, CJK, Cyrillic, emoji outside the BMP, combining marks. */
export function unicodeHits(): SearchHit[] {
  const cjk =
    "ブログ検索: 日本語のテキストと café déjà-vu 🚀 launch, then Привет мир and the staging déploy";
  return [
    hit({
      name: "日本語のセッション名 🚀 with a very long title that will certainly not fit in forty columns",
      snippet: cjk,
      words: ["staging", "déploy", "日本語"],
      tags: ["ブログ", "café"],
    }),
    hit({
      name: null,
      firstMessage: "e\u0301le\u0301phant (combining accents) and 👨‍👩‍👧‍👦 family emoji",
      snippet: "Zwei Wörter: größer und Straße — staging",
      words: ["staging", "größer"],
      cwd: "/home/dev/blog",
    }),
    hit({
      name: "Tabs\tand\nnewlines \u001b[31mred\u001b[0m in a title",
      snippet: "line one\nline two\twith tab and \u001b]0;evil\u0007 escape staging",
      words: ["staging"],
      tags: [],
    }),
    hit({
      snippet:
        "   leading spaces then a very long run of words before the match " +
        "filler ".repeat(30) +
        "staging",
      words: ["staging"],
    }),
  ];
}

const FG: Record<string, number> = {
  accent: 33,
  border: 90,
  borderAccent: 94,
  muted: 37,
  dim: 2,
  text: 39,
  success: 32,
  warning: 33,
  error: 31,
  searchMatchText: 30,
};

/** A theme that styles with real ANSI escapes (what Pi's theme does), matches in reverse video. */
export const colorTheme: PickerTheme = {
  fg: (color, text) => `\x1b[${FG[color] ?? 39}m${text}\x1b[39m`,
  bg: (color, text) =>
    color === "searchMatchBg" ? `\x1b[7m${text}\x1b[27m` : `\x1b[48;5;236m${text}\x1b[49m`,
  bold: (text) => `\x1b[1m${text}\x1b[22m`,
};

const ANSI = /\x1b\[[0-9;]*m/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/** The texts drawn as matches (in reverse video) by `colorTheme`. */
export function highlighted(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    for (const m of line.matchAll(/\x1b\[7m(.*?)\x1b\[27m/g)) out.push(stripAnsi(m[1]!));
  }
  return out;
}
