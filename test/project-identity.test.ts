import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeRemote, projectIdentity, remoteUrl } from "../src/sessions/project-identity.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { userMessage } from "./helpers/fixture-files.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

describe("a git remote as a project identity", () => {
  it("is the same for the URL forms of one repository", () => {
    const forms = [
      "git@github.com:Acme/App.git",
      "https://github.com/acme/app",
      "https://user:secret@github.com/acme/app.git/",
      "ssh://git@github.com:22/acme/app.git",
      "git+ssh://git@GitHub.com/acme/app",
    ];
    for (const form of forms) expect(normalizeRemote(form), form).toBe("github.com/acme/app");
  });

  it("keeps the case of paths on hosts that may not ignore it, and local remotes as paths", () => {
    expect(normalizeRemote("https://git.example.org/Team/Tool.git")).toBe(
      "git.example.org/Team/Tool",
    );
    expect(normalizeRemote("/srv/git/tool.git")).toBe("/srv/git/tool");
    expect(normalizeRemote("file:///srv/git/tool.git")).toBe("/srv/git/tool");
  });

  it("reads origin's URL from a config, else the first remote's", () => {
    const config = [
      "[core]\n\tbare = false",
      '[remote "upstream"]\n\turl = git@github.com:up/app.git',
      '[remote "origin"]\n\turl = "https://github.com/me/app" ; mine',
      '[branch "main"]\n\tremote = origin',
    ].join("\n");
    expect(remoteUrl(config)).toBe("https://github.com/me/app");
    expect(
      remoteUrl(
        '[remote "fork"]\n  url = git@gitlab.com:me/app.git  # a comment\n[remote "other"]\nurl = x',
      ),
    ).toBe("git@gitlab.com:me/app.git");
    expect(remoteUrl("[core]\n\turl = not-a-remote")).toBeUndefined();
  });
});

/**
 * Folders on disk: two clones of one repository (ssh and https), a worktree of the first, a
 * repository without a remote, and a folder outside any.
 */
function makeProjects(root: string) {
  const repo = (dir: string, url?: string) => {
    mkdirSync(join(dir, ".git"), { recursive: true });
    writeFileSync(
      join(dir, ".git", "config"),
      `[core]\n\tbare = false\n${url ? `[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n` : ""}`,
    );
  };
  const folders = {
    cloneA: join(root, "work", "app"),
    cloneB: join(root, "elsewhere", "app-copy"),
    worktree: join(root, "trees", "app-feature"),
    local: join(root, "scratch", "notes"),
    plain: join(root, "plain"),
  };
  repo(folders.cloneA, "git@github.com:acme/app.git");
  repo(folders.cloneB, "https://github.com/Acme/app");
  repo(folders.local);
  mkdirSync(join(folders.cloneA, "src", "deep"), { recursive: true });
  mkdirSync(join(folders.local, "sub"), { recursive: true });
  mkdirSync(folders.plain, { recursive: true });
  // A linked worktree: its .git is a file naming a folder of the main repository, whose
  // `commondir` leads back to the repository's own config.
  const linked = join(folders.cloneA, ".git", "worktrees", "app-feature");
  mkdirSync(linked, { recursive: true });
  writeFileSync(join(linked, "commondir"), "../..\n");
  mkdirSync(folders.worktree, { recursive: true });
  writeFileSync(join(folders.worktree, ".git"), `gitdir: ${linked}\n`);
  return folders;
}

describe("projectIdentity", () => {
  let agent: AgentDir;
  let folders: ReturnType<typeof makeProjects>;
  beforeAll(() => {
    agent = makeAgentDir({ withFixtures: false });
    folders = makeProjects(realpathSync(agent.root));
  });
  afterAll(() => agent.cleanup());

  it("names clones, subfolders and worktrees of one repository alike, and other folders by themselves", () => {
    expect(projectIdentity(folders.cloneA)).toBe("github.com/acme/app");
    expect(projectIdentity(join(folders.cloneA, "src", "deep"))).toBe("github.com/acme/app");
    expect(projectIdentity(folders.cloneB)).toBe("github.com/acme/app");
    expect(projectIdentity(folders.worktree)).toBe("github.com/acme/app");
    expect(projectIdentity(join(folders.local, "sub"))).toBe(folders.local);
    expect(projectIdentity(folders.plain)).toBe(folders.plain);
    expect(projectIdentity(join(folders.plain, "gone", "since"))).toBe(
      join(folders.plain, "gone", "since"),
    );
  });
});

describe("recall search --repo and list --repo", () => {
  let agent: AgentDir;
  let folders: ReturnType<typeof makeProjects>;
  const at = Date.parse("2026-11-02T00:00:00Z");
  const session = (name: string, cwd: string) => {
    const id = `0${name.padEnd(7, "0")}-0000-7000-8000-000000000000`;
    const dir = join(agent.sessionsDir, `--${name}--`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `2026-11-01T00-00-00-000Z_${id}.jsonl`),
      `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-01T00:00:00.000Z", cwd })}\n${userMessage(`${name}01`, `flakyclock test in ${name}`, at)}`,
    );
  };
  const recall = (cwd: string, ...args: string[]) => runRecall(args, { env: agent.env, cwd });

  beforeAll(() => {
    agent = makeAgentDir({ withFixtures: false });
    folders = makeProjects(realpathSync(agent.root));
    session("a", folders.cloneA);
    session("asub", join(folders.cloneA, "src", "deep"));
    session("b", folders.cloneB);
    session("w", folders.worktree);
    session("local", folders.local);
    session("plain", folders.plain);
  });
  afterAll(() => agent.cleanup());

  const cwds = (stdout: string) =>
    jsonLines<{ cwd: string }>(stdout)
      .map((hit) => hit.cwd)
      .sort();

  it("finds the sessions of every clone and worktree of the current folder's repository, each with its project", async () => {
    const result = await recall(join(folders.cloneB), "search", "--repo", "--json", "flakyclock");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(cwds(result.stdout)).toEqual(
      [
        folders.cloneA,
        join(folders.cloneA, "src", "deep"),
        folders.cloneB,
        folders.worktree,
      ].sort(),
    );
    expect(
      new Set(jsonLines<{ project: string }>(result.stdout).map((hit) => hit.project)),
    ).toEqual(new Set(["github.com/acme/app"]));
    const listed = await recall(folders.worktree, "list", "--repo", "--json");
    expect(cwds(listed.stdout)).toEqual(cwds(result.stdout));
  });

  it("keeps --here the exact folder, and a folder outside git its own project", async () => {
    expect(
      cwds((await recall(folders.cloneA, "search", "--here", "--json", "flakyclock")).stdout),
    ).toEqual([folders.cloneA]);
    expect(
      cwds(
        (await recall(join(folders.local, "sub"), "search", "--repo", "--json", "flakyclock"))
          .stdout,
      ),
    ).toEqual([folders.local]);
    const plain = await recall(folders.plain, "search", "--repo", "--json", "flakyclock");
    expect(jsonLines<{ cwd: string; project: string }>(plain.stdout)).toEqual([
      expect.objectContaining({ cwd: folders.plain, project: folders.plain }),
    ]);
  });

  it("says in one line that a folder and a project do not combine, and when the project has no match", async () => {
    const both = await recall(folders.cloneA, "search", "--repo", "--here", "flakyclock");
    expect(both.code).toBe(2);
    expect(both.stderr.trim().split("\n")).toHaveLength(1);
    expect(both.stderr).toMatch(/cannot both scope/);
    const none = await recall(folders.cloneA, "search", "--repo", "nosuchwordanywhere");
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/drop --repo/);
  });
});
