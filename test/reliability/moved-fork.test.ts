/**
 * A fork whose header's `parentSession` path no longer resolves (sessions copied to another
 * machine, a home folder renamed) and whose parent is there under another name, with the same
 * session id (Pi names files `<time>_<id>.jsonl`, or only in its header when renamed by hand): its
 * copied history is found in the parent only, as when the path matches. It used to come back as a
 * second hit.
 */
import { mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

const PARENT = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const FORK = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4";
/** A message of the parent that the fork copied. */
const COPIED = "kubectl rollout restart thanks";

let dir: AgentDir;
beforeEach(() => {
  dir = makeAgentDir();
});
afterEach(() => dir.cleanup());

const hitIds = async () =>
  jsonLines<{ id: string }>(
    (await runRecall(["search", "--json", COPIED], { env: dir.env })).stdout,
  ).map((h) => h.id);

describe("a fork whose parent moved", () => {
  it("with the parent's path intact (by its file name): the parent's hit, not the fork's", async () => {
    const ids = await hitIds();
    expect(ids).toContain(PARENT);
    expect(ids).not.toContain(FORK);
  });

  it("the parent under another name and folder, same session id: still the parent's hit, not the fork's", async () => {
    const project = join(dir.sessionsDir, "--home-alice-shop-api--");
    mkdirSync(project);
    renameSync(
      join(dir.sessionsDir, "--home-dev-shop-api--", `2026-10-01T09-00-00-000Z_${PARENT}.jsonl`),
      join(project, `2026-10-01T09-00-00-123Z_${PARENT}.jsonl`),
    );
    const ids = await hitIds();
    expect(ids).toContain(PARENT);
    expect(ids).not.toContain(FORK);
  });

  it("the parent renamed by hand (its name no longer holds its id), before the first index: found by the id in its header", async () => {
    renameSync(
      join(dir.sessionsDir, "--home-dev-shop-api--", `2026-10-01T09-00-00-000Z_${PARENT}.jsonl`),
      join(dir.sessionsDir, "--home-dev-shop-api--", "staging-deploy.jsonl"),
    );
    const ids = await hitIds();
    expect(ids).toContain(PARENT);
    expect(ids).not.toContain(FORK);
  });

  it("the parent renamed by hand after both were indexed: the fork is read again, and still only the parent's hit", async () => {
    expect(await hitIds()).not.toContain(FORK);
    const project = join(dir.sessionsDir, "--home-alice-shop-api--");
    mkdirSync(project);
    renameSync(
      join(dir.sessionsDir, "--home-dev-shop-api--", `2026-10-01T09-00-00-000Z_${PARENT}.jsonl`),
      join(project, "kept.jsonl"),
    );
    const ids = await hitIds();
    expect(ids).toContain(PARENT);
    expect(ids).not.toContain(FORK);
  });
});
