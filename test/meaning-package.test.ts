/**
 * Finding the meaning model's package (src/api/meaning-model.ts) as Node resolves it beside recall:
 * absent, it is no model (word search only); at another release than recall's, MODEL_UNAVAILABLE
 * naming both versions; at recall's, the model loads and embeds (skipped, visibly, without the
 * assembled package, scripts/model-package.sh).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMeaningModel, MODEL_PACKAGE_NAME, modelPackageDir } from "../src/api/meaning-model.js";
import { RecallError } from "../src/errors.js";
import { RECALL_VERSION } from "../src/version.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";

let root: string;
let from: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "recall-model-package-"));
  // Where recall's files would be: node_modules/recall-pi/dist/api/meaning-model.js.
  from = join(root, "node_modules", "recall-pi", "dist", "api", "meaning-model.js");
  mkdirSync(join(root, "node_modules", "recall-pi", "dist", "api"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/**
 * Installs a model package beside recall-pi at `version`, with the assembled model's files if
 * given.
 */
function install(version: string, files?: string): string {
  const dir = join(root, "node_modules", MODEL_PACKAGE_NAME);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: MODEL_PACKAGE_NAME, version }));
  if (files)
    for (const file of ["model.onnx", "tokenizer.json"])
      symlinkSync(join(files, file), join(dir, file));
  return dir;
}

describe("the meaning model's package", () => {
  it("is no model when it is not installed", async () => {
    expect(modelPackageDir(from)).toBeNull();
    expect(await loadMeaningModel(from)).toBeNull();
  });

  it("is refused at another release than recall's, naming both", () => {
    install("0.0.1-other");
    const error = (() => {
      try {
        return modelPackageDir(from);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RecallError);
    expect(error).toMatchObject({
      code: "MODEL_UNAVAILABLE",
      message: `the meaning model's package ${MODEL_PACKAGE_NAME} is at 0.0.1-other, not at recall's ${RECALL_VERSION}`,
    });
  });

  it.skipIf(!MODEL_PACKAGE)(
    `is found beside recall at its release, and embeds${MODEL_SKIP_REASON}`,
    async () => {
      const dir = install(RECALL_VERSION, MODEL_PACKAGE);
      expect(modelPackageDir(from)).toBe(dir);
      const model = await loadMeaningModel(from);
      const [vector] = await model!.embed(["found beside recall"]);
      expect(vector!.length).toBe(384);
    },
  );
});
