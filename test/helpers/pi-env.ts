/**
 * Running the real Pi 1.6.0 with the recall extension, for end-to-end tests.
 *
 * Pi needs Node >= 22.19, and vitest runs on the project's Node 20, so tests spawn the pinned
 * runtime that `scripts/pi-runtime.sh` installs in .cache/pi-runtime (CI installs it; without
 * it these tests are skipped, visibly). The extension runs from an installed copy of the package
 * (`package.json`, `src/`, the native addon): the same files `npm pack` ships, loaded as Pi loads
 * any package. Its native addon is the checkout's, unchanged: built on Node-API, it loads in Pi's
 * Node 22 as it does in the Node 20 that runs the tests.
 *
 * Sessions are the project's fixtures, with their folders (`/home/dev/…`) moved under the test's
 * temporary root: `shop-api` and `blog` exist there, `infra` deliberately does not.
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const FAUX_EXTENSION = join(REPO, "test", "helpers", "pi-faux-provider.ts");

export interface PiRuntime {
  node: string;
  cli: string;
}

/** The pinned runtime, if scripts/pi-runtime.sh installed it (PI_RUNTIME_DIR moves it). */
export function piRuntime(): PiRuntime | undefined {
  const dir = process.env.PI_RUNTIME_DIR ?? join(REPO, ".cache", "pi-runtime");
  const runtime = {
    node: join(dir, "node_modules", ".bin", "node"),
    cli: join(
      dir,
      "node_modules",
      "@earendil-works",
      "pi-coding-agent",
      "dist",
      "bundle",
      "cli.js",
    ),
  };
  return [runtime.node, runtime.cli].every((p) => existsSync(p)) ? runtime : undefined;
}

export const PI_RUNTIME = piRuntime();
/** Why Pi tests are skipped, for the test title. */
export const PI_SKIP_REASON = PI_RUNTIME
  ? ""
  : " (skipped: no Pi runtime; run scripts/pi-runtime.sh)";

export interface PiHome {
  root: string;
  home: string;
  agentDir: string;
  sessionsDir: string;
  /** The installed copy of the package: what `pi -e` and `pi install` are given. */
  pkg: string;
  /** Existing project folders, by fixture name (`shop-api`, `blog`); `infra` is missing. */
  projects: Record<"shop-api" | "blog" | "infra", string>;
  env: NodeJS.ProcessEnv;
  /** The fixture session file whose name contains `id`. */
  session(id: string): string;
  cleanup(): void;
}

function rewriteTree(dir: string, from: string, to: string): void {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) rewriteTree(path, from, to);
    else writeFileSync(path, readFileSync(path, "utf8").split(from).join(to));
  }
}

/**
 * The package as installed: the files `npm pack` ships that the extension needs, and its
 * dependencies (linked from this checkout, as npm would install them beside it; Pi's own
 * packages, its peers, come from Pi).
 */
export function installPackageCopy(into: string): string {
  const pkg = join(into, "recall-pi");
  mkdirSync(join(pkg, "native"), { recursive: true });
  cpSync(join(REPO, "package.json"), join(pkg, "package.json"));
  cpSync(join(REPO, "src"), join(pkg, "src"), { recursive: true });
  symlinkSync(join(REPO, "native", "recall.node"), join(pkg, "native", "recall.node"));
  const { dependencies } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const name of Object.keys(dependencies)) {
    mkdirSync(dirname(join(pkg, "node_modules", name)), { recursive: true });
    symlinkSync(join(REPO, "node_modules", name), join(pkg, "node_modules", name));
  }
  return pkg;
}

/**
 * The package copy this test run shares (test/helpers/global-setup.ts installs it once): at one
 * path, Pi's TypeScript loader (jiti) compiles the extension's files once and every later Pi
 * reuses its cache, as a user's Pi does; a new copy per test cost each test's first Pi about 8 s
 * (12.7 against 4.7 s for `/recall help` at load 13). Not named RECALL_…: clean-env.ts removes
 * those.
 */
export const SHARED_PACKAGE_VARIABLE = "TEST_PI_PACKAGE_COPY";

/**
 * A Pi home with the fixture sessions; `ownPackage` gives it a package copy of its own, inside it.
 */
export function makePiHome(options: { ownPackage?: boolean } = {}): PiHome {
  const root = mkdtempSync(join(tmpdir(), "recall-pi-"));
  const home = join(root, "home");
  const agentDir = join(root, "agent");
  const sessionsDir = join(agentDir, "sessions");
  mkdirSync(sessionsDir, { recursive: true });
  cpSync(join(REPO, "test", "fixtures", "agent", "sessions"), sessionsDir, { recursive: true });
  const fakeHome = join(root, "home", "dev");
  rewriteTree(sessionsDir, "/home/dev", fakeHome);
  const projects = {
    "shop-api": join(fakeHome, "shop-api"),
    blog: join(fakeHome, "blog"),
    infra: join(fakeHome, "infra"),
  };
  mkdirSync(projects["shop-api"], { recursive: true });
  mkdirSync(projects.blog, { recursive: true });
  const shared = process.env[SHARED_PACKAGE_VARIABLE];
  const pkg = options.ownPackage || !shared ? installPackageCopy(root) : shared;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    LANG: "C.UTF-8",
  };
  const session = (id: string) => {
    for (const dir of readdirSync(sessionsDir)) {
      for (const file of readdirSync(join(sessionsDir, dir)))
        if (file.includes(id)) return join(sessionsDir, dir, file);
    }
    throw new Error(`no fixture session ${id}`);
  };
  return {
    root,
    home,
    agentDir,
    sessionsDir,
    pkg,
    projects,
    env,
    session,
    cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `pi <args>` under the pinned Node 22 and waits for it to exit. */
export function runPi(
  runtime: PiRuntime,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(runtime.node, [runtime.cli, ...args], {
      env: options.env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every entry of a session file. */
export function readEntries(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Session files in a folder of the sessions directory, newest name last. */
export function sessionFiles(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".jsonl"))
        .sort()
        .map((f) => join(dir, f))
    : [];
}

/** Pi's folder name for a project's sessions (`--<cwd with / as ->--`). */
export function projectSessionDir(sessionsDir: string, cwd: string): string {
  return join(sessionsDir, `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
}
