#!/usr/bin/env node
// The README's pictures of `recall serve`: the app over the test fixture sessions, in Debian's
// chromium (playwright-core), written to docs/images/. Run after `npm run build`:
//   node scripts/screenshots.mjs
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "docs", "images");
const home = mkdtempSync(join(tmpdir(), "recall-shots-"));
const agentDir = join(home, "agent");
mkdirSync(agentDir, { recursive: true });
cpSync(join(root, "test", "fixtures", "agent", "sessions"), join(agentDir, "sessions"), {
  recursive: true,
});
const env = { PATH: process.env.PATH, HOME: home, PI_CODING_AGENT_DIR: agentDir, TZ: "UTC" };

const server = spawn(process.execPath, [join(root, "bin", "recall.cjs"), "serve"], {
  env,
  cwd: home,
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((resolve) =>
  server.stdout.once("data", (d) => resolve(String(d).split("\n")[0])),
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  mkdirSync(out, { recursive: true });
  const page = await browser.newPage({
    viewport: { width: 1200, height: 720 },
    colorScheme: "light",
  });
  await page.goto(url);
  await page.locator("input[type=search]").pressSequentially("staging depl");
  await page.waitForFunction(
    () =>
      document.querySelectorAll("li.hit mark").length > 0 &&
      document.querySelectorAll("li.hit").length < 10,
  );
  await page.screenshot({ path: join(out, "serve-search.png") });
  await page.locator("input[type=search]").press("Enter");
  await page.waitForSelector(".part.marked");
  await page.evaluate(() => scrollTo(0, 0));
  await page.screenshot({ path: join(out, "serve-session.png") });
  await page.goto(new URL("/activity?since=", url).href);
  await page.waitForSelector("svg.chart");
  await page.screenshot({ path: join(out, "serve-activity.png") });
  console.log(
    `wrote ${["serve-search.png", "serve-session.png", "serve-activity.png"].map((f) => join("docs", "images", f)).join(", ")}`,
  );
} finally {
  await browser.close();
  server.kill("SIGTERM");
  rmSync(home, { recursive: true, force: true });
}
