/**
 * The fixed query set of the benchmark: the same queries on every corpus (S, M, L and custom
 * sizes), so results of different sizes can be compared side by side.
 *
 * The words come from the generator's text pool (Node and TypeScript docs in node_modules), so they
 * occur in every corpus made from the pinned pool: `websocket` is a fairly rare word, `source map`
 * a common phrase, `instrum…` the prefix of a topic word, `qzxjvw` occurs nowhere.
 *
 * Each query says how to run it three ways:
 *  - `cli`: the arguments after `recall search`;
 *  - `lib`: the `searchSessions` options (the project cwd is absolute, as in the corpus headers);
 *  - `rg`: the ripgrep baseline over the raw JSONL, `rg -l -F -i <patterns>
 *    <sessionsDir>/<subdir>`:
 *           a literal, case-insensitive search that lists matching files. Several words are OR'ed
 *           with `-e`, as recall ORs loose words. rg has no tags: that query has no baseline.
 */

/** A folder of the corpus (`/home/dev/api-gateway`, the second-largest project). */
export const SCOPED_CWD = "/home/dev/api-gateway";
/** Pi's folder name for it under sessions/. */
export const SCOPED_DIR = "--home-dev-api-gateway--";
/** The tag the harness puts on a few sessions when `recall tag` exists. */
export const BENCH_TAG = "bench";

export const QUERIES = [
  {
    key: "word",
    label: "single word",
    cli: ["websocket"],
    lib: { query: "websocket" },
    rg: { patterns: ["websocket"] },
  },
  {
    key: "words",
    label: "several words",
    cli: ["socket", "timeout", "milliseconds"],
    lib: { query: "socket timeout milliseconds" },
    rg: { patterns: ["socket", "timeout", "milliseconds"] },
  },
  {
    key: "phrase",
    label: "phrase",
    cli: ['"source map"'],
    lib: { query: '"source map"' },
    rg: { patterns: ["source map"] },
  },
  {
    key: "prefix",
    label: "prefix",
    cli: ["--prefix", "instrum"],
    lib: { query: "instrum", prefix: true },
    rg: { patterns: ["instrum"] },
  },
  {
    key: "tag",
    label: "#tag filter",
    cli: [`#${BENCH_TAG}`, "websocket"],
    lib: { query: `#${BENCH_TAG} websocket` },
    rg: null,
    needsTags: true,
  },
  {
    key: "folder",
    label: "folder-scoped",
    cli: ["--cwd", SCOPED_CWD, "resolver"],
    lib: { query: "resolver", cwd: SCOPED_CWD },
    rg: { patterns: ["resolver"], subdir: SCOPED_DIR },
  },
  {
    key: "nohits",
    label: "no hits",
    cli: ["qzxjvw"],
    lib: { query: "qzxjvw" },
    rg: { patterns: ["qzxjvw"] },
  },
];

/** The picker's first query: a short unfinished word, matched as a prefix. */
export const PICKER_QUERY = { query: "webso", prefix: true, limit: 20 };

/** `rg` arguments for a query. */
export function rgArgs(query, sessionsDir) {
  const dir = query.rg.subdir ? `${sessionsDir}/${query.rg.subdir}` : sessionsDir;
  const patterns =
    query.rg.patterns.length === 1
      ? [query.rg.patterns[0]]
      : query.rg.patterns.flatMap((p) => ["-e", p]);
  return ["-l", "-F", "-i", ...patterns, dir];
}
