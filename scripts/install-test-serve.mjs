#!/usr/bin/env node
// The installed `recall serve` as a browser meets it: started by the given command, its printed
// address opened (a cookie of the run's secret set), the page, the front end's script and style
// (shipped in the package, never fetched elsewhere) and a search with a real hit; then SIGTERM,
// after which it must exit 0. Used by scripts/install-test.sh.
//
// Usage: node scripts/install-test-serve.mjs <label> <word> <session id> <command> [args…]
import { spawn } from "node:child_process";

const [label, word, id, command, ...args] = process.argv.slice(2);
const TIMEOUT_MS = 60_000;

function fail(message) {
  console.error(`install-test: FAIL: ${label}: recall serve: ${message}`);
  server.kill("SIGKILL");
  process.exit(1);
}

const server = spawn(command, [...args, "serve"], { stdio: ["ignore", "pipe", "pipe"] });
let stderr = "";
server.stderr.on("data", (chunk) => (stderr += chunk));
server.on("error", (error) => fail(`cannot start: ${error.message}`));
const timer = setTimeout(
  () => fail(`no address within ${TIMEOUT_MS / 1000} s; stderr: ${stderr}`),
  TIMEOUT_MS,
);
let printed = "";
const address = await new Promise((resolve) => {
  server.stdout.on("data", (chunk) => {
    printed += chunk;
    if (printed.includes("\n")) resolve(new URL(printed.split("\n")[0]));
  });
  server.on("exit", (code, signal) =>
    fail(`exited with ${code ?? signal} before printing its address; stderr: ${stderr}`),
  );
});
server.removeAllListeners("exit");

const admitted = await fetch(address, { redirect: "manual" });
const cookie = admitted.headers.get("set-cookie")?.split(";")[0];
if (admitted.status !== 303 || !cookie)
  fail(`the printed address answered ${admitted.status} without a cookie`);
for (const path of ["/", "/assets/app.js", "/assets/app.css", "/assets/session.css"]) {
  const response = await fetch(new URL(path, address), { headers: { cookie } });
  if (response.status !== 200 || (await response.text()).length === 0)
    fail(`${path} answered ${response.status}`);
}
const found = await (
  await fetch(new URL(`/api/search?q=${encodeURIComponent(word)}`, address), {
    headers: { cookie },
  })
).json();
if (!found.hits?.some((hit) => hit.id === id))
  fail(`a search for ${word} did not find ${id}: ${JSON.stringify(found)}`);
const exited = new Promise((resolve) =>
  server.on("exit", (code, signal) => resolve(code ?? signal)),
);
server.kill("SIGTERM");
const code = await exited;
clearTimeout(timer);
if (code !== 0) fail(`exited with ${code} after SIGTERM; stderr: ${stderr}`);
console.error(
  `install-test: ok: ${label}: recall serve answered its page, its front end and a search, and stopped on SIGTERM`,
);
