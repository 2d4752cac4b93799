/**
 * Session text (Markdown, untrusted) as HTML: markdown-it with raw HTML off, so any tag in a
 * message is shown as text; links only to http, https and mailto, each with
 * rel="noopener noreferrer"; images shown as text with their address, never loaded; fenced code
 * highlighted by highlight.js (one of the languages below, named by the fence); table alignment
 * as classes, since the export's Content-Security-Policy allows no style attribute.
 *
 * highlight.js's common languages (36: the shells, C to Rust, JS/TS, Python, Go, Java, SQL, JSON,
 * YAML, Markdown, diffs…) and two more a coding agent writes, not all 190: registering every
 * language took ~70 ms of a page's first session view.
 */
import hljs from "highlight.js/lib/common";
import dockerfile from "highlight.js/lib/languages/dockerfile";
import powershell from "highlight.js/lib/languages/powershell";
import markdownItCallable, { type MarkdownIt } from "markdown-it";
import { escapeHtml } from "./escape.js";

hljs.registerLanguage("dockerfile", dockerfile);
hljs.registerLanguage("powershell", powershell);

const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * Code as highlighted HTML (escaped) in a `pre`, highlighted when `language` is one highlight.js
 * knows.
 */
export function codeBlock(code: string, language: string): string {
  const known = language && hljs.getLanguage(language) ? language : "";
  const body = known
    ? hljs.highlight(code, { language: known, ignoreIllegals: true }).value
    : escapeHtml(code);
  return `<pre><code class="hljs${known ? ` language-${escapeHtml(known)}` : ""}">${body}</code></pre>\n`;
}

let instance: MarkdownIt | undefined;

function markdownIt(): MarkdownIt {
  if (instance) return instance;
  const md = new markdownItCallable({
    html: false,
    linkify: true,
    typographer: false,
    highlight: (code, info) => codeBlock(code, info.trim().split(/\s+/)[0]?.toLowerCase() ?? ""),
  });
  md.validateLink = (url) => SAFE_LINK.test(url.trim());
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    tokens[idx]!.attrSet("rel", "noopener noreferrer");
    return self.renderToken(tokens, idx, options);
  };
  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx]!;
    const alt = token.children
      ? token.children.map((child) => child.content).join("")
      : token.content;
    const src = token.attrGet("src");
    return `<span class="image-ref">[image${alt ? `: ${escapeHtml(alt)}` : ""} ${escapeHtml(String(src ?? ""))}]</span>`;
  };
  // Table alignment comes as style="text-align:…" attributes: a class instead.
  md.core.ruler.push("alignment-classes", (state) => {
    for (const token of state.tokens) {
      const style = token.attrGet("style");
      if (style === null) continue;
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
      const align = /text-align:(left|right|center)/.exec(String(style))?.[1];
      if (align) token.attrJoin("class", `align-${align}`);
    }
  });
  instance = md;
  return md;
}

export function markdownHtml(text: string): string {
  return markdownIt().render(text);
}

/**
 * markdown-it made, and its rules and highlight.js's JSON compiled, on a sample: what the first
 * render of a process pays (~20 ms), paid before a page asks (`recall serve`).
 */
export function warmRenderers(): void {
  markdownHtml(
    "A *sample*, `code`, a [link](https://example.com)\n\n- a list\n\n| a |\n|---|\n| 1 |\n",
  );
  codeBlock('{\n  "command": "ls"\n}', "json");
}
