/**
 * Dates as --since and --until take them: a date not in the calendar is an error (it used to
 * roll over: Nov 31 meant Dec 1), and a day given to --until is included whole (it used to mean
 * that day's midnight, so `--since D --until D` found nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTime } from "../../src/output/time.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

describe("parseTime", () => {
  const now = new Date(2026, 10, 30, 15, 30).getTime();

  it.each(["2026-11-31", "2026-02-29", "2026-13-45", "2026-00-10", "2026-04-31T10:00:00Z"])(
    "refuses %s, which is not in the calendar",
    (text) => {
      expect(() => parseTime(text, now)).toThrow(/^there is no date 2026-\d\d-\d\d: /);
    },
  );

  it("says what is wrong with the date", () => {
    expect(() => parseTime("2026-11-31", now)).toThrow(
      "there is no date 2026-11-31: that month has 30 days",
    );
    expect(() => parseTime("2026-13-45", now)).toThrow(
      "there is no date 2026-13-45: a month is 01 to 12",
    );
  });

  it("takes a leap day in a leap year", () => {
    expect(parseTime("2028-02-29", now)).toBe(new Date(2028, 1, 29).getTime());
  });

  it("a day ends an --until window at its last moment", () => {
    expect(parseTime("2026-11-20", now, "end")).toBe(new Date(2026, 10, 21).getTime() - 1);
    expect(parseTime("today", now, "end")).toBe(new Date(2026, 11, 1).getTime() - 1);
    expect(parseTime("yesterday", now, "end")).toBe(new Date(2026, 10, 30).getTime() - 1);
  });

  it("a day starts a --since window at its first moment; times and durations are the same for both ends", () => {
    expect(parseTime("2026-11-20", now, "start")).toBe(new Date(2026, 10, 20).getTime());
    expect(parseTime("2026-11-20T10:00:00Z", now, "end")).toBe(Date.parse("2026-11-20T10:00:00Z"));
    expect(parseTime("7d", now, "end")).toBe(now - 7 * 86400e3);
  });
});

describe("--since D --until D on the command line", () => {
  let dir: AgentDir;
  beforeAll(() => {
    dir = makeAgentDir();
  });
  afterAll(() => dir.cleanup());

  // The fixture sessions' messages are all from 2026-10-01 (UTC), and the tests run in UTC.
  const day = "2026-10-01";

  it("list finds the sessions of that day", async () => {
    const result = await runRecall(["list", "--since", day, "--until", day, "--json"], {
      env: { ...dir.env, TZ: "UTC" },
    });
    expect(result.code).toBe(0);
    const sessions = jsonLines<{ modified: string }>(result.stdout);
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) expect(s.modified.slice(0, 10)).toBe(day);
  });

  it("search finds messages of that day", async () => {
    const result = await runRecall(
      ["search", "--since", day, "--until", day, "--json", "database"],
      { env: { ...dir.env, TZ: "UTC" } },
    );
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout).length).toBeGreaterThan(0);
  });

  it("a date not in the calendar: one line, exit 2", async () => {
    const result = await runRecall(["search", "--since", "2026-11-31", "database"], {
      env: dir.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("recall: there is no date 2026-11-31: that month has 30 days\n");
  });
});
