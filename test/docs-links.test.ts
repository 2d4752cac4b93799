/**
 * The documents a person reads hold together: every relative link in README.md, the other
 * top-level documents and docs/ names a file that exists and, with `#anchor`, a heading in it
 * (as GitHub makes anchors of headings). docs/cli.md's freshness is checked with the man pages
 * (shell-integration.test.ts, `gen-docs.mjs --check`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCUMENTS = [
  ...readdirSync(ROOT).filter((name) => name.endsWith(".md")),
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** Markdown without its fenced code blocks and code spans, where a link is no link. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/**
 * The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces to
 * dashes, repeats numbered.
 */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text
    .replace(/^```[\s\S]*?^```/gm, "")
    .matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe("the documents' links", () => {
  it("finds the documents and their links", () => {
    expect(DOCUMENTS).toEqual(
      expect.arrayContaining([
        "README.md",
        "ARCHITECTURE.md",
        "docs/README.md",
        "docs/cli.md",
        "docs/search.md",
      ]),
    );
    expect(
      anchorsOf("# A `b` · c: d\n## Sizing and the index's life\n## Tools\n## Tools\n"),
    ).toEqual(new Set(["a-b--c-d", "sizing-and-the-indexs-life", "tools", "tools-1"]));
  });

  it.each(DOCUMENTS)(
    "%s: every relative link names a file that exists, and a heading in it",
    (document) => {
      const text = readFileSync(join(ROOT, document), "utf8");
      const broken: string[] = [];
      for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split("#") as [string, string | undefined];
        const file = path === "" ? join(ROOT, document) : join(ROOT, dirname(document), path);
        if (!existsSync(file)) {
          broken.push(`${target} (no ${relative(ROOT, file)})`);
          continue;
        }
        if (
          anchor !== undefined &&
          file.endsWith(".md") &&
          !anchorsOf(readFileSync(file, "utf8")).has(anchor)
        )
          broken.push(`${target} (no such heading)`);
      }
      expect(broken).toEqual([]);
    },
  );
});

describe("the README", () => {
  it("builds a checkout with the commands .ci/run runs: npm install (npm ci there), then npm test", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toMatch(/^npm install +#/m);
    expect(readme).toMatch(/^npm test +#/m);
    expect(readFileSync(join(ROOT, ".ci", "run"), "utf8")).toMatch(/^npm test$/m);
  });

  it("stays a page a person reads: the details are in docs/", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").length).toBeLessThan(20_000);
  });
});
