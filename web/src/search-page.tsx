/**
 * Search as you type: each keystroke asks the server (the last word as a prefix, as the picker
 * does) and the newest answer wins. The address holds the query, scope and match, so a search can
 * be bookmarked; arrows move through the hits and Enter opens one.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { SearchAnswer, ServeInfo } from "../../src/serve/wire.js";
import { getJson } from "./api.js";
import { HitList, sessionLink } from "./hit-list.js";
import { useLive } from "./live.js";
import { navigate } from "./navigation.js";

interface Search {
  q: string;
  scope: string;
  match: string;
}

function searchOf(url: URL, info: ServeInfo): Search {
  const remote = url.searchParams.get("remote") ?? info.remote;
  return {
    q: url.searchParams.get("q") ?? "",
    scope: remote ? `remote:${remote}` : (url.searchParams.get("scope") ?? "all"),
    match: url.searchParams.get("match") ?? "",
  };
}

function addressOf(search: Search): string {
  const params = new URLSearchParams();
  if (search.q) params.set("q", search.q);
  if (search.scope.startsWith("remote:")) params.set("remote", search.scope.slice(7));
  else if (search.scope !== "all") params.set("scope", search.scope);
  if (search.match) params.set("match", search.match);
  const text = params.toString();
  return text ? `/?${text}` : "/";
}

export function SearchPage({ info, url }: { info: ServeInfo; url: URL }) {
  const [search, setSearch] = useState(() => searchOf(url, info));
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState(0);
  const [refresh, setRefresh] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);
  useLive(() => setRefresh((n) => n + 1));

  useEffect(() => {
    navigate(addressOf(search), true);
    const stop = new AbortController();
    const remote = search.scope.startsWith("remote:") ? search.scope.slice(7) : undefined;
    getJson<SearchAnswer>(
      "/api/search",
      {
        q: search.q,
        scope: remote ? undefined : search.scope,
        remote,
        match: remote ? undefined : search.match || undefined,
      },
      stop.signal,
    )
      .then((found) => {
        setAnswer(found);
        setError(null);
        setSelected(0);
      })
      .catch((e: Error) => {
        if (e.name !== "AbortError") setError(e.message);
      });
    return () => stop.abort();
  }, [search, refresh]);

  const hits = answer?.hits ?? [];
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || (event.key === "n" && event.ctrlKey))
      setSelected((i) => Math.min(hits.length - 1, i + 1));
    else if (event.key === "ArrowUp" || (event.key === "p" && event.ctrlKey))
      setSelected((i) => Math.max(0, i - 1));
    else if (event.key === "Enter" && hits[selected])
      navigate(sessionLink(hits[selected]!, search.q));
    else if (event.key === "Escape") setSearch({ ...search, q: "" });
    else return;
    event.preventDefault();
  };

  return (
    <main class="search-page">
      <div class="search-bar">
        <input
          ref={input}
          type="search"
          name="q"
          placeholder="Search sessions: words, #tags, -#tag"
          aria-label="Search sessions"
          autocomplete="off"
          spellcheck={false}
          value={search.q}
          onInput={(e) => setSearch({ ...search, q: (e.target as HTMLInputElement).value })}
          onKeyDown={onKey}
        />
        <select
          aria-label="Scope"
          value={search.scope}
          onChange={(e) => setSearch({ ...search, scope: (e.target as HTMLSelectElement).value })}
        >
          <option value="all">Every session</option>
          <option value="folder">This folder</option>
          <option value="project">This project</option>
          {info.remotes.map((remote) => (
            <option value={`remote:${remote}`} key={remote}>{`Archive: ${remote}`}</option>
          ))}
        </select>
        {info.matchModes.length > 1 && !search.scope.startsWith("remote:") ? (
          <select
            aria-label="Match"
            value={search.match}
            onChange={(e) => setSearch({ ...search, match: (e.target as HTMLSelectElement).value })}
          >
            <option value="">Words and meaning</option>
            <option value="words">Words</option>
            <option value="meaning">Meaning</option>
          </select>
        ) : null}
      </div>
      <p class="search-note" aria-live="polite">
        {error ? (
          <span class="error">{error}</span>
        ) : answer ? (
          <SearchNote answer={answer} query={search.q} />
        ) : (
          "Searching…"
        )}
        {answer?.hits.length === 0 && info.sessionsNote ? (
          <span class="error">{` · ${info.sessionsNote}`}</span>
        ) : null}
      </p>
      <HitList hits={hits} selected={selected} query={search.q} onHover={setSelected} />
    </main>
  );
}

function SearchNote({ answer, query }: { answer: SearchAnswer; query: string }) {
  const parts: string[] = [];
  if (!query) parts.push("Most recent sessions");
  else
    parts.push(
      answer.hits.length === 0
        ? "No session matches"
        : `${answer.hits.length}${answer.nextCursor ? "+" : ""} sessions`,
    );
  if (answer.readAs) parts.push(`read as ${answer.readAs}`);
  if (answer.note) parts.push(answer.note);
  return <>{parts.join(" · ")}</>;
}
