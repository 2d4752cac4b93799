/**
 * The page and its files: one HTML shell for every page of the app (the front end, web/, routes
 * by the address), the front end's script and stylesheet as the package ships them (dist/web,
 * built by scripts/bundle-cli.mjs), and a session's stylesheet (the HTML export's). Read once.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RecallError } from "../index.js";

export interface Asset {
  body: Buffer;
  type: string;
}

/** The front end's folder: dist/web, beside the bundle this module is built into. */
function webFolder(): string {
  return fileURLToPath(new URL("../web/", import.meta.url));
}

export function loadAssets(sessionCss: string): Map<string, Asset> {
  const folder = webFolder();
  const read = (name: string) => {
    try {
      return readFileSync(`${folder}${name}`);
    } catch {
      throw new RecallError(
        "NOT_FOUND",
        `the web app's ${name} is missing from ${folder}: build it with npm run build`,
      );
    }
  };
  return new Map([
    ["/assets/app.js", { body: read("app.js"), type: "text/javascript; charset=utf-8" }],
    ["/assets/app.css", { body: read("app.css"), type: "text/css; charset=utf-8" }],
    ["/assets/session.css", { body: Buffer.from(sessionCss), type: "text/css; charset=utf-8" }],
    ["/favicon.svg", { body: Buffer.from(ICON), type: "image/svg+xml" }],
  ]);
}

/** The app's icon: a magnifier over a line of text. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0969da"/><path d="M7 10h12M7 15h8" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/><circle cx="19" cy="19" r="5" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M23 23l3.5 3.5" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>`;

/** The shell every page of the app starts from. */
export const SHELL = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>recall</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/session.css">
<link rel="stylesheet" href="/assets/app.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>
`;

/** The addresses the shell answers: the app's pages. */
export const PAGES = /^\/(|session\/[^/]+|activity)$/;
