/**
 * Pictures of the work: sessions, messages, tokens and cost over a window, per day, project and
 * model, and the busiest files.
 */
import { useEffect, useState } from "preact/hooks";
import type { ActivityAnswer } from "../../src/serve/wire.js";
import { getJson } from "./api.js";
import { count } from "./format.js";
import { useLive } from "./live.js";
import { navigate } from "./navigation.js";

const WINDOWS: Array<[string, string]> = [
  ["7", "Last 7 days"],
  ["30", "Last 30 days"],
  ["90", "Last 90 days"],
  ["365", "Last year"],
  ["", "All time"],
];

export function ActivityPage({ url }: { url: URL }) {
  const [since, setSince] = useState(url.searchParams.get("since") ?? "30");
  const [scope, setScope] = useState(url.searchParams.get("scope") ?? "all");
  const [answer, setAnswer] = useState<ActivityAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  useLive(() => setRefresh((n) => n + 1));

  useEffect(() => {
    const params = new URLSearchParams({ since, ...(scope === "all" ? {} : { scope }) });
    navigate(`/activity?${params}`, true);
    getJson<ActivityAnswer>("/api/activity", { since: since || undefined, scope })
      .then((found) => {
        setAnswer(found);
        setError(null);
      })
      .catch((e: Error) => setError(e.message));
  }, [since, scope, refresh]);

  return (
    <main class="activity-page">
      <div class="search-bar">
        <select
          aria-label="Window"
          value={since}
          onChange={(e) => setSince((e.target as HTMLSelectElement).value)}
        >
          {WINDOWS.map(([value, label]) => (
            <option value={value} key={value}>
              {label}
            </option>
          ))}
        </select>
        <select
          aria-label="Scope"
          value={scope}
          onChange={(e) => setScope((e.target as HTMLSelectElement).value)}
        >
          <option value="all">Every session</option>
          <option value="folder">This folder</option>
          <option value="project">This project</option>
        </select>
      </div>
      {error ? <p class="error">{error}</p> : null}
      {answer ? (
        <>
          <p class="totals">
            {[
              count(answer.totals.sessions, "session"),
              count(answer.totals.messages, "message"),
              count(answer.totals.tokens, "token"),
            ].join(" · ")}
            {answer.totals.cost > 0 ? ` · cost ${answer.totals.cost.toFixed(2)}` : ""}
            {answer.unreadable > 0
              ? ` · ${count(answer.unreadable, "file")} could not be read`
              : ""}
          </p>
          {answer.charts.map((chart) => (
            <figure class="chart-figure" key={chart.title}>
              <figcaption>{chart.title}</figcaption>
              <div dangerouslySetInnerHTML={{ __html: chart.svg }} />
            </figure>
          ))}
          <figure class="chart-figure">
            <figcaption>Busiest files</figcaption>
            {answer.files.length === 0 ? (
              <p class="search-note">No tool call touched a file in this window.</p>
            ) : (
              <table class="files">
                <thead>
                  <tr>
                    <th>File</th>
                    <th class="align-right">Calls</th>
                    <th class="align-right">Sessions</th>
                  </tr>
                </thead>
                <tbody>
                  {answer.files.map((file) => (
                    <tr key={file.path}>
                      <td>
                        <code>{file.path}</code>
                      </td>
                      <td class="align-right">{file.calls}</td>
                      <td class="align-right">{file.sessions}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </figure>
        </>
      ) : error ? null : (
        <p class="search-note">Counting…</p>
      )}
    </main>
  );
}
