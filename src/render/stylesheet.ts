/**
 * The export's one style element: recall's layout, and highlight.js's GitHub themes for code (the
 * dark one under prefers-color-scheme), read from the installed package with their comments
 * left out. Read once.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const LAYOUT = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa; --user: #0969da; --assistant: #1a7f37; --warn: #9a6700; --error: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --panel: #151b23; --user: #4493f8; --assistant: #3fb950; --warn: #d29922; --error: #f85149; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 0.75rem; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0 0 1.5rem; }
dl.fields dt { color: var(--muted); }
dl.fields dd { margin: 0; }
.tag { display: inline-block; padding: 0 0.45rem; margin-right: 0.3rem; border: 1px solid var(--line); border-radius: 1rem; font-size: 0.85em; }
article.entry { border-top: 1px solid var(--line); padding: 0.75rem 0; }
article.entry > h2 { font-size: 0.95rem; margin: 0 0 0.5rem; display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: baseline; }
article.entry > h2 time, article.entry > h2 .meta { color: var(--muted); font-weight: normal; }
article.user > h2 .role { color: var(--user); }
article.assistant > h2 .role { color: var(--assistant); }
article.compaction, article.branch_summary { background: var(--panel); padding: 0.75rem; border-radius: 6px; }
.abandoned { border-left: 3px solid var(--warn); padding-left: 0.75rem; }
.branch-note { color: var(--warn); font-weight: 600; margin: 1rem 0 0; }
details { border: 1px solid var(--line); border-radius: 6px; margin: 0.5rem 0; background: var(--panel); }
details > summary { cursor: pointer; padding: 0.35rem 0.6rem; color: var(--muted); }
details > summary code { color: var(--fg); }
details[open] > summary { border-bottom: 1px solid var(--line); }
details > .body { padding: 0 0.6rem 0.4rem; }
details.failed > summary, .error { color: var(--error); }
.gist { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.85em; }
pre { overflow-x: auto; font-size: 0.85em; border-radius: 6px; }
pre code.hljs { padding: 0.6rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
:not(pre) > code { background: var(--panel); padding: 0.1em 0.3em; border-radius: 4px; font-size: 0.9em; }
.markdown h1 { font-size: 1.3rem; } .markdown h2 { font-size: 1.15rem; } .markdown h3, .markdown h4, .markdown h5, .markdown h6 { font-size: 1rem; }
.markdown > :first-child { margin-top: 0; }
.markdown > :last-child { margin-bottom: 0; }
.markdown table { border-collapse: collapse; }
.markdown th, .markdown td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; }
.align-left { text-align: left; } .align-right { text-align: right; } .align-center { text-align: center; }
.markdown blockquote { margin: 0; padding-left: 0.8rem; border-left: 3px solid var(--line); color: var(--muted); }
.image-ref { color: var(--muted); font-style: italic; }
footer { margin-top: 2rem; color: var(--muted); font-size: 0.85em; }
`;

let css: string | undefined;

export function stylesheet(): string {
  if (css !== undefined) return css;
  const require = createRequire(import.meta.url);
  const theme = (name: string) =>
    readFileSync(require.resolve(`highlight.js/styles/${name}.css`), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\n\s*\n/g, "\n")
      .trim();
  css = `${LAYOUT.trim()}\n${theme("github")}\n@media (prefers-color-scheme: dark) {\n${theme("github-dark")}\n}\n`;
  return css;
}
