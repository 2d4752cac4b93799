/**
 * The model package's files checked against what the package records of them (its package.json's
 * `recall.files`: each file's size and sha256, written by scripts/model-package.sh) before the core
 * loads them: a file damaged since is refused as MODEL_UNAVAILABLE, one line, instead of being run.
 * The size is checked at every load (a stat); the digest when the file changed since it last
 * matched (its device, inode, size and times, kept in `<cache>/model-checked`), so a cold search
 * hashes the 90 MB model once, not each time. A package that records nothing is loaded as it is
 * (the core still reads only regular files within a model's size). Not-regular files are the
 * core's to refuse: they are not opened here.
 */
import { createReadStream, readFileSync, statSync, writeFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { RecallError } from "../errors.js";
import { sha256Hasher } from "../hash.js";

interface Recorded {
  bytes: number;
  sha256: string;
}

/** What the package in `dir` records of its files; empty when it records nothing. */
function recorded(dir: string): Record<string, Recorded> {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      recall?: { files?: Record<string, Recorded> };
    };
    return manifest.recall?.files ?? {};
  } catch {
    return {};
  }
}

/** One file as it is now: changes whenever its bytes can have. */
function identity(path: string, stats: Stats): string {
  return [path, stats.dev, stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs].join(":");
}

function damaged(path: string, reason: string): RecallError {
  return new RecallError("MODEL_UNAVAILABLE", `the meaning model's ${path} is damaged: ${reason}`);
}

function sha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = sha256Hasher();
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/**
 * Checks the files of the model package in `dir` against what it records; `cacheDir` (optional)
 * keeps which files matched, so an unchanged file is not hashed again.
 */
export async function checkModelFiles(dir: string, cacheDir?: string): Promise<void> {
  const files = Object.entries(recorded(dir));
  if (files.length === 0) return;
  const stamp = cacheDir === undefined ? undefined : join(cacheDir, "model-checked");
  let checked: string[] = [];
  try {
    checked = stamp === undefined ? [] : readFileSync(stamp, "utf8").split("\n");
  } catch {
    // Nothing checked yet.
  }
  const matched: string[] = [];
  for (const [name, record] of files) {
    const path = join(dir, name);
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch {
      continue; // Missing: the core names it.
    }
    if (!stats.isFile()) continue;
    if (stats.size !== record.bytes)
      throw damaged(
        path,
        `it holds ${stats.size} bytes, not the ${record.bytes} its package records`,
      );
    const seen = `${identity(path, stats)} ${record.sha256}`;
    if (!checked.includes(seen)) {
      const digest = await sha256(path);
      if (digest !== record.sha256)
        throw damaged(
          path,
          `its sha256 is ${digest}, not the ${record.sha256} its package records`,
        );
    }
    matched.push(seen);
  }
  if (stamp === undefined || matched.join("\n") === checked.join("\n")) return;
  try {
    writeFileSync(stamp, matched.join("\n"));
  } catch {
    // A read-only cache: the files are hashed again next time.
  }
}
