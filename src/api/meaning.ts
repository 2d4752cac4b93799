/**
 * Meaning search, as the library runs it: the model (meaning-model.ts) and the meaning index of
 * the cache folder (`<cache>/meaning/`, native/src/search/by_meaning.rs), opened together when
 * first needed; embedding the conversation a batch at a time (resumable: what a killed run appended
 * is kept, and a text is embedded once whatever sessions hold it); and a query's vector for a
 * search by meaning or both. What a unit is and how a search ranks are the native core's.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RecallError } from "../errors.js";
import type { Locations } from "../locations.js";
import { MeaningHandle } from "../native/meaning-handle.js";
import { MeaningIndexHandle } from "../native/meaning-index-handle.js";
import type { IndexStore } from "../store.js";
import { RECALL_VERSION } from "../version.js";
import { MODEL_PACKAGE_NAME, modelPackageDir } from "./meaning-model.js";
import { checkModelFiles } from "./model-files.js";

/** The loaded model and the meaning index it made. */
export interface Meaning {
  model: MeaningHandle;
  index: MeaningIndexHandle;
}

/** How much of the conversation the meaning index covers: messages with their vector, of all. */
export interface MeaningCoverage {
  embedded: number;
  messages: number;
}

/**
 * Whether a search by meaning should say its index is incomplete: more than 1 in 100 of the
 * messages searched lack their vector. Fewer (the few a sync just added, embedded by the next
 * search or the host following the index) change no ranking worth a word.
 */
export function meaningIncomplete(coverage: MeaningCoverage): boolean {
  return (coverage.messages - coverage.embedded) * 100 > coverage.messages;
}

export interface MeaningBuildOptions {
  onProgress?: (coverage: MeaningCoverage) => void;
  /** Stops between two batches; what was embedded is kept. */
  signal?: AbortSignal;
  /**
   * Given: a build that finds another process building the meaning index waits for it to end
   * (looking once a second; `onProgress` hears the other's progress meanwhile), told first who it
   * is (the LOCKED error's message). Not given: that is a LOCKED error.
   */
  onWait?: (holder: string) => void;
}

export interface MeaningReport extends MeaningCoverage {
  /** Texts embedded by this run. */
  added: number;
  /** Vectors dropped because no message refers to them any more. */
  dropped: number;
  /** Stopped by the signal before the end. */
  stopped: boolean;
}

/** Texts embedded per call to the core: about a second of one core, so a stop is heard soon. */
const BATCH = 64;
/** How often a build waiting for another process's looks whether it ended. */
const WAIT_MS = 1000;

/** The error of a search by meaning or a meaning build without the model package. */
export function meaningUnavailable(): RecallError {
  return new RecallError(
    "MODEL_UNAVAILABLE",
    `meaning search needs the model package ${MODEL_PACKAGE_NAME}, which is not installed`,
    {
      hint: `install ${MODEL_PACKAGE_NAME}@${RECALL_VERSION} beside recall`,
    },
  );
}

/**
 * The model's folder: `RECALL_MODEL_DIR` if set, else the package installed beside recall;
 * null when there is none, or `RECALL_MEANING=off` turns meaning search off.
 */
export function modelDir(env: NodeJS.ProcessEnv): string | null {
  if (env.RECALL_MEANING === "off") return null;
  return env.RECALL_MODEL_DIR ? env.RECALL_MODEL_DIR : modelPackageDir();
}

/**
 * Whether a model package is there to load (one at another release is there, and refused when
 * loaded).
 */
export function modelInstalled(env: NodeJS.ProcessEnv): boolean {
  try {
    return modelDir(env) !== null;
  } catch {
    return true;
  }
}

/**
 * Which model made the vectors: its package and version, and `+int8` when it multiplies in
 * integers (MeaningHandle.arithmetic: this processor's fastest). Vectors of another are not read.
 */
export function modelIdentity(dir: string): string {
  const manifest = join(dir, "package.json");
  const version = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version
    : undefined;
  const arithmetic = MeaningHandle.arithmetic();
  return `${MODEL_PACKAGE_NAME}@${version ?? "unversioned"}${arithmetic === "float32" ? "" : `+${arithmetic}`}`;
}

/**
 * The meaning index of these locations, without loading the model (what a related search needs);
 * null when no model is installed.
 */
export async function openMeaningIndex(
  locations: Locations,
  env: NodeJS.ProcessEnv,
): Promise<MeaningIndexHandle | null> {
  const dir = modelDir(env);
  return dir === null
    ? null
    : MeaningIndexHandle.open(join(locations.cacheDir, "meaning"), modelIdentity(dir));
}

/**
 * The model pre-packed in a cache folder (native/model/src/packed.rs): mapped by a later load
 * instead of parsed.
 */
export const PACKED_MODEL_FILE = "model-packed";

/**
 * The model and the meaning index `index` of these locations; null when no model is installed.
 * The model's files are checked against what its package records first (model-files.ts;
 * `cacheDir` keeps which matched, and the model pre-packed: PACKED_MODEL_FILE).
 */
export async function openMeaning(
  index: Promise<MeaningIndexHandle | null>,
  env: NodeJS.ProcessEnv,
  cacheDir?: string,
): Promise<Meaning | null> {
  const dir = modelDir(env);
  if (dir === null) return null;
  await checkModelFiles(dir, cacheDir);
  const model = await MeaningHandle.load(
    dir,
    MeaningHandle.arithmetic(),
    cacheDir === undefined ? undefined : join(cacheDir, PACKED_MODEL_FILE),
  );
  const opened = await index;
  return opened ? { model, index: opened } : null;
}

/**
 * Embeds the conversation messages the meaning index lacks, newest first, a batch at a time, then
 * drops vectors nothing refers to any more. LOCKED when another process is embedding.
 */
export async function buildMeaning(
  store: IndexStore,
  meaning: Meaning,
  options: MeaningBuildOptions = {},
): Promise<MeaningReport> {
  let added = 0;
  let coverage: MeaningCoverage = await meaning.index.coverage(store.native);
  options.onProgress?.(coverage);
  let told = false;
  try {
    for (;;) {
      if (options.signal?.aborted) return { ...coverage, added, dropped: 0, stopped: true };
      let step;
      try {
        step = await meaning.index.embed(store.native, meaning.model, BATCH);
      } catch (error) {
        if (!(error instanceof RecallError && error.code === "LOCKED" && options.onWait))
          throw error;
        if (!told) options.onWait(error.message);
        told = true;
        await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
        coverage = await meaning.index.coverage(store.native);
        options.onProgress?.(coverage);
        continue;
      }
      coverage = step.coverage;
      added += step.added;
      options.onProgress?.(coverage);
      if (step.added === 0) break;
    }
    const dropped = await meaning.index.compact(store.native);
    return { ...coverage, added, dropped, stopped: false };
  } finally {
    meaning.index.release();
  }
}

/**
 * Embeds up to `batch` of the messages the meaning index lacks, newest first, then lets another
 * process embed: what a search does for the few messages a sync just added.
 */
export async function catchUpMeaning(
  store: IndexStore,
  meaning: Meaning,
  batch: number,
): Promise<void> {
  try {
    await meaning.index.embed(store.native, meaning.model, batch);
  } finally {
    meaning.index.release();
  }
}

/**
 * Keeps the meaning index following the word index (`recall watch --meaning`): `synced()` after
 * each sync starts a build unless one runs, and one that runs builds once more when it ends, so an
 * appended message is embedded soon after the sync that indexed it, and never two builds at once.
 */
export class MeaningFollower {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly build: () => Promise<MeaningReport>,
    private readonly onError: (error: unknown) => void,
  ) {}

  synced(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.build();
        } catch (error) {
          this.onError(error);
        }
      } while (this.again);
      this.running = undefined;
    })();
  }

  /** Waits for the build under way, if any. */
  async settled(): Promise<void> {
    await this.running;
  }
}
