import { mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveLocations } from "../src/locations.js";

describe("where sessions, the cache and tags live", () => {
  it("defaults to ~/.pi/agent in Pi's project layout", () => {
    const l = resolveLocations({ env: {} });
    expect(l).toMatchObject({
      agentDir: join(homedir(), ".pi", "agent"),
      sessionsDir: join(homedir(), ".pi", "agent", "sessions"),
      layout: "projects",
      cacheDir: join(homedir(), ".pi", "agent", "cache", "recall"),
      dataDir: join(homedir(), ".pi", "agent", "recall"),
    });
  });

  it("takes the first of --sessions-dir, PI_CODING_AGENT_SESSION_DIR, settings.json, default", () => {
    const agentDir = mkdtempSync(join(tmpdir(), "recall-loc-"));
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ sessionDir: "from-settings" }));
    const env = { PI_CODING_AGENT_DIR: agentDir, PI_CODING_AGENT_SESSION_DIR: "/from/env" };
    expect(resolveLocations({ env, sessionsDir: "/from/flag" }).sessionsDir).toBe("/from/flag");
    expect(resolveLocations({ env }).sessionsDir).toBe("/from/env");
    const fromSettings = resolveLocations({ env: { PI_CODING_AGENT_DIR: agentDir }, cwd: "/work" });
    expect(fromSettings).toMatchObject({ sessionsDir: "/work/from-settings", layout: "flat" });
    writeFileSync(join(agentDir, "settings.json"), "not json");
    expect(resolveLocations({ env: { PI_CODING_AGENT_DIR: agentDir } })).toMatchObject({
      sessionsDir: join(agentDir, "sessions"),
      layout: "projects",
    });
  });

  it("gives each custom sessions directory its own index, and honours the env overrides", () => {
    const a = resolveLocations({ env: {}, sessionsDir: "/a" });
    const b = resolveLocations({ env: {}, sessionsDir: "/b" });
    expect(a.cacheDir).not.toBe(b.cacheDir);
    const moved = resolveLocations({ env: { RECALL_CACHE_DIR: "~/c", RECALL_DATA_DIR: "/d" } });
    expect(moved.cacheDir).toBe(join(homedir(), "c"));
    expect(moved.dataDir).toBe("/d");
  });
});
