#!/usr/bin/env node
/**
 * The targets of issue 7 and the tables of BENCHMARKS.md, from one or more results files.
 *
 *   node bench/report.mjs bench/results/M-2026-11-30.json bench/results/L-2026-11-30.json
 *
 * prints Markdown: the machine, a table of every measurement (median and p95, one column pair per
 * corpus), and the targets, each met / not met, including the ones that compare corpus sizes
 * (`recall search` nearly flat, the gap to rg widening, peak RSS not growing).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const worst = (values, pick) => {
  const list = values.filter((v) => v !== null && v !== undefined && Number.isFinite(v));
  return list.length ? pick(...list) : null;
};

/**
 * Each target: what it says, which corpora it is stated for, how to read its value from results.
 */
export const TARGETS = [
  {
    id: "cli-vs-node",
    text: "`recall search` end-to-end p50 ≤ 2 × `node -e 0` (worst query)",
    applies: ["M", "L"],
    unit: "×",
    threshold: 2,
    better: "lower",
    value: (r) =>
      worst(
        Object.values(r.measurements.cliSearch).map(
          (c) => c.median / r.measurements.nodeFloorMs.median,
        ),
        Math.max,
      ),
  },
  {
    id: "cli-watched-vs-node",
    text: "the same, with `recall watch` running (searches skip their freshness check)",
    applies: ["M", "L"],
    unit: "×",
    threshold: 2,
    better: "lower",
    value: (r) =>
      worst(
        Object.values(r.measurements.cliSearch).map(
          (c) => c.watched.median / r.measurements.nodeFloorMs.median,
        ),
        Math.max,
      ),
  },
  {
    id: "inproc-p95",
    text: "in-process search p95 ≤ 10 ms (worst query)",
    applies: ["L"],
    unit: "ms",
    threshold: 10,
    better: "lower",
    value: (r) =>
      worst(
        Object.values(r.measurements.inProcess).map((q) => q.p95),
        Math.max,
      ),
  },
  {
    id: "inproc-all-p95",
    text: "in-process search p95 with `--content all` ≤ 15 ms (worst query)",
    applies: ["L"],
    unit: "ms",
    threshold: 15,
    better: "lower",
    value: (r) =>
      r.measurements.inProcessAllContent
        ? worst(
            Object.values(r.measurements.inProcessAllContent).map((q) => q.p95),
            Math.max,
          )
        : null,
  },
  {
    id: "inproc-vs-rg",
    text: "in-process search ≥ 10 × faster than `rg` (rg p50 ÷ in-process p95, worst query)",
    applies: ["M"],
    unit: "×",
    threshold: 10,
    better: "higher",
    value: (r) =>
      worst(
        Object.entries(r.measurements.rg).map(
          ([k, rg]) => rg.median / r.measurements.inProcess[k]?.p95,
        ),
        Math.min,
      ),
  },
  {
    id: "picker",
    text: "picker open → first results p50 ≤ 50 ms (Recall.open + no-change sync + prefix search)",
    applies: ["M"],
    unit: "ms",
    threshold: 50,
    better: "lower",
    value: (r) => r.measurements.picker?.fromOpenMs.median ?? null,
  },
  {
    id: "index-time",
    text: "full index p50 ≤ 10 s (every kind of text indexed)",
    applies: ["M"],
    unit: "s",
    threshold: 10,
    better: "lower",
    value: (r) => r.measurements.index.wallMs.median / 1000,
  },
  {
    id: "index-per-gb",
    text: "full index p50 ≤ 20 s per GB of session files (a corpus mostly tool output: `--shape output`)",
    applies: ["output"],
    unit: "s/GB",
    threshold: 20,
    better: "lower",
    value: (r) => r.measurements.index.wallMs.median / 1000 / (r.corpus.bytes / 1e9),
  },
  {
    id: "index-rss",
    text: "full index peak RSS ≤ 1 GiB (max over runs)",
    applies: ["M", "L"],
    unit: "MiB",
    threshold: 1024,
    better: "lower",
    value: (r) => r.measurements.index.peakRssMiB?.max ?? null,
  },
  {
    id: "index-size",
    text: "index ≤ 0.5 × corpus bytes",
    applies: ["M", "L"],
    unit: "×",
    threshold: 0.5,
    better: "lower",
    value: (r) => r.measurements.index.indexRatio,
  },
  {
    id: "fresh-nochange",
    text: "no-change freshness check (`syncIndex`) p50 ≤ 50 ms",
    applies: ["M"],
    unit: "ms",
    threshold: 50,
    better: "lower",
    value: (r) => r.measurements.freshness.noChangeSyncMs.median,
  },
  {
    id: "fresh-append",
    text: "appended message searchable (sync + search) p50 ≤ 50 ms",
    applies: ["M"],
    unit: "ms",
    threshold: 50,
    better: "lower",
    value: (r) => r.measurements.freshness.append?.totalMs.median ?? null,
  },
];

/** Every target evaluated on one results object (met is null when there is nothing to compare). */
export function evaluateTargets(results) {
  return TARGETS.map((t) => {
    let value = null;
    try {
      value = t.value(results);
    } catch {
      value = null;
    }
    const met =
      value === null ? null : t.better === "lower" ? value <= t.threshold : value >= t.threshold;
    return {
      id: t.id,
      text: t.text,
      applies: t.applies,
      appliesHere:
        t.applies.includes(results.corpus.label) || t.applies.includes(results.corpus.shape),
      value: value === null ? null : Number(value.toFixed(3)),
      threshold: t.threshold,
      unit: t.unit,
      met,
    };
  });
}

const fmt = (x, digits = 1) => {
  if (x === null || x === undefined || Number.isNaN(x)) return "–";
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString("en-US");
  if (Math.abs(x) >= 100) return x.toFixed(0);
  return x.toFixed(digits);
};
const verdict = (met) => (met === null ? "n/a" : met ? "**met**" : "**not met**");

function machineLine(r) {
  const mc = r.machine;
  return `${mc.nproc} cores (${mc.cpuModel}), ${mc.memoryGiB} GiB RAM, ${mc.platform}, Node ${mc.node}, ${mc.rg ?? "no rg"}`;
}

/** One row per measurement; the cells of each corpus are [median, p95]. */
function measurementRows(list) {
  const rows = [];
  const add = (label, cell) => rows.push([label, ...list.flatMap((r) => cell(r) ?? ["–", "–"])]);
  const stat = (s, scale = 1, digits = 1) =>
    s ? [fmt(s.median / scale, digits), fmt(s.p95 / scale, digits)] : null;
  const one = (x, digits = 1) => [fmt(x, digits), ""];
  const queries = [];
  for (const r of list)
    for (const q of r.queries) if (!queries.some((x) => x.key === q.key)) queries.push(q);

  add("corpus: sessions / MB / message entries", (r) => [
    `${r.corpus.files} / ${fmt(r.corpus.bytes / 1e6, 0)} MB`,
    `${r.corpus.messageEntries.toLocaleString("en-US")} msgs`,
  ]);
  add("load average at start (1 min)", (r) => one(r.load.start[0], 2));
  add("**full index** wall, `recall index` from empty (s)", (r) =>
    stat(r.measurements.index.wallMs, 1000, 2),
  );
  add("full index MB/s (at p50)", (r) => one(r.measurements.index.mbPerS));
  add("full index s per GB (at p50)", (r) =>
    one(r.measurements.index.wallMs.median / 1000 / (r.corpus.bytes / 1e9)),
  );
  add("full index message entries/s (at p50)", (r) => one(r.measurements.index.messagesPerS, 0));
  add("full index peak RSS (MiB)", (r) => stat(r.measurements.index.peakRssMiB, 1, 0));
  add("index size (MB) / ÷ corpus bytes", (r) => [
    fmt(r.measurements.index.cacheBytes / 1e6, 1),
    `${(r.measurements.index.indexRatio * 100).toFixed(2)} %`,
  ]);
  add("**freshness**: no-change `syncIndex`, in-process (ms)", (r) =>
    stat(r.measurements.freshness.noChangeSyncMs, 1, 2),
  );
  add("`recall search` minus `--no-sync`, same query (ms)", (r) =>
    stat(r.measurements.freshness.cliSyncOverheadMs, 1, 1),
  );
  add("appended message → searchable: sync + search (ms)", (r) =>
    stat(r.measurements.freshness.append?.totalMs, 1, 1),
  );
  add("  of which `syncIndex` (ms)", (r) => stat(r.measurements.freshness.append?.syncMs, 1, 1));
  add("**`node -e 0`** (ms)", (r) => stat(r.measurements.nodeFloorMs, 1, 1));
  for (const q of queries)
    add(`\`recall search\`, ${q.label} (ms)`, (r) => stat(r.measurements.cliSearch[q.key], 1, 1));
  for (const q of queries)
    add(`\`recall search --no-sync\`, ${q.label} (ms)`, (r) =>
      stat(r.measurements.cliSearch[q.key]?.noSync, 1, 1),
    );
  for (const q of queries)
    add(`\`recall search\` with \`recall watch\` running, ${q.label} (ms)`, (r) =>
      stat(r.measurements.cliSearch[q.key]?.watched, 1, 1),
    );
  for (const q of queries)
    add(`in-process \`searchSessions\`, ${q.label} (ms)`, (r) =>
      stat(r.measurements.inProcess[q.key], 1, 2),
    );
  for (const q of queries)
    add(`in-process \`searchSessions\` \`--content all\`, ${q.label} (ms)`, (r) =>
      stat(r.measurements.inProcessAllContent?.[q.key], 1, 2),
    );
  for (const q of queries.filter((q) => q.rg))
    add(`\`rg\`, ${q.label} (ms)`, (r) => stat(r.measurements.rg[q.key], 1, 1));
  add("**picker**: Recall.open → results (ms)", (r) =>
    stat(r.measurements.picker?.fromOpenMs, 1, 1),
  );
  add("  import library + the above (ms)", (r) => stat(r.measurements.picker?.fromImportMs, 1, 1));
  add("  of which no-change `syncIndex` / first search (ms)", (r) =>
    r.measurements.picker
      ? [fmt(r.measurements.picker.syncMs.median), fmt(r.measurements.picker.searchMs.median)]
      : null,
  );
  add("Pi `SessionManager.listAll()` (ms)", (r) => stat(r.measurements.piListAll?.listMs, 1, 0));
  return rows;
}

function table(header, rows) {
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "--:")).join("|")}|`,
  ];
  for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
  return lines.join("\n");
}

/** Hit counts per query, so a reader sees the queries do match (and rg's noise). */
function hitsTable(list) {
  const header = [
    "query",
    ...list.flatMap((r) => [
      `${r.corpus.label}: recall sessions (limit 20)`,
      `${r.corpus.label}: rg files`,
    ]),
  ];
  const queries = list[0].queries;
  const rows = queries.map((q) => [
    `${q.label}: \`${q.cli.replace(/^recall search /, "")}\``,
    ...list.flatMap((r) => [
      r.measurements.cliSearch[q.key]?.hits ?? "n/a",
      r.measurements.rg[q.key]?.files ?? "–",
    ]),
  ]);
  return table(header, rows);
}

function targetsTable(list) {
  const header = [
    "target",
    "stated for",
    ...list.flatMap((r) => [`${r.corpus.label}`, `${r.corpus.label} verdict`]),
  ];
  const rows = TARGETS.map((t) => [
    t.text,
    t.applies.join(", "),
    ...list.flatMap((r) => {
      const e = r.targets.find((x) => x.id === t.id);
      if (!e || e.value === null) return ["n/a", "n/a"];
      return [
        `${fmt(e.value, 2)} ${e.unit}`,
        `${verdict(e.met)}${e.appliesHere ? "" : " (informative)"}`,
      ];
    }),
  ]);
  return table(header, rows);
}

/** Targets that compare corpus sizes: need a smaller and a larger results file. */
function growthLines(list) {
  if (list.length < 2) return [];
  const sorted = [...list].sort((a, b) => a.corpus.bytes - b.corpus.bytes);
  const small = sorted[0];
  const large = sorted.at(-1);
  const k = `${small.corpus.label} → ${large.corpus.label}`;
  const x = large.corpus.bytes / small.corpus.bytes;
  const cliRatio = (r) =>
    Math.max(
      ...Object.values(r.measurements.cliSearch).map(
        (c) => c.median / r.measurements.nodeFloorMs.median,
      ),
    );
  const gap = (r) =>
    Math.min(
      ...Object.entries(r.measurements.rg).map(
        ([q, rg]) => rg.median / r.measurements.inProcess[q].p95,
      ),
    );
  const rss = (r) => r.measurements.index.peakRssMiB?.max;
  const cliWorst = (r) => Math.max(...Object.values(r.measurements.cliSearch).map((c) => c.median));
  const inprocWorst = (r) => Math.max(...Object.values(r.measurements.inProcess).map((q) => q.p95));
  return [
    `- Corpus ${k}: ${x.toFixed(1)} × the bytes.`,
    `- \`recall search\` worst query p50: ${fmt(cliWorst(small))} → ${fmt(cliWorst(large))} ms; in-process worst query p95: ${fmt(inprocWorst(small), 2)} → ${fmt(inprocWorst(large), 2)} ms.`,
    `- \`recall search\` ÷ \`node -e 0\` (worst query, p50): ${cliRatio(small).toFixed(2)} → ${cliRatio(large).toFixed(2)} (nearly flat: ${verdict(cliRatio(large) <= 2 && cliRatio(large) / cliRatio(small) < 1.25)}).`,
    `- rg ÷ in-process p95 (worst query): ${gap(small).toFixed(1)} × → ${gap(large).toFixed(1)} × (gap widens: ${verdict(gap(large) > gap(small))}).`,
    `- Full index peak RSS: ${fmt(rss(small), 0)} → ${fmt(rss(large), 0)} MiB (does not grow with the corpus: ${verdict(rss(large) <= 1024 && rss(large) / rss(small) < 1.5)}).`,
  ];
}

export function markdown(list) {
  const out = [];
  out.push(`Machine: ${machineLine(list[0])}.`);
  for (const r of list) {
    const build = r.build
      ? `, native ${r.build.native?.sha256 ?? "?"}, CLI bundle ${r.build.cliBundle?.sha256 ?? "?"}`
      : "";
    out.push(
      `- ${r.corpus.label}: \`${r.command}\` — ${r.date}, load average ${r.load.start.join(" ")} at start, ${r.load.end.join(" ")} at the end, ${r.elapsedS} s, git ${r.machine.git ?? "?"}${build}`,
    );
  }
  out.push("");
  out.push(
    table(
      [
        "measurement",
        ...list.flatMap((r) => [`${r.corpus.label} median`, `${r.corpus.label} p95`]),
      ],
      measurementRows(list),
    ),
  );
  out.push("");
  out.push(hitsTable(list));
  out.push("");
  out.push(targetsTable(list));
  const growth = growthLines(list);
  if (growth.length) out.push("", ...growth);
  const notes = [...new Set(list.flatMap((r) => r.notes ?? []))];
  if (notes.length) out.push("", ...notes.map((n) => `- ${n}`));
  return out.join("\n");
}

/** The terminal summary of one run. */
export function formatTable(results) {
  const lines = [markdown([results]), ""];
  for (const t of results.targets) {
    const value = t.value === null ? "n/a" : `${fmt(t.value, 2)} ${t.unit}`;
    lines.push(
      `${t.met === null ? "N/A    " : t.met ? "MET    " : "NOT MET"}  ${t.text}: ${value}${t.appliesHere ? "" : ` (stated for ${t.applies.join(", ")})`}`,
    );
  }
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write("usage: node bench/report.mjs <results.json>…\n");
    process.exit(2);
  }
  const list = files.map((f) => JSON.parse(readFileSync(f, "utf8")));
  process.stdout.write(`${markdown(list)}\n`);
}
