/**
 * A session: its header, tags (editable), the line that resumes it, its export, related
 * sessions, and the conversation as the library rendered it, a page of parts at a time: the
 * first page (or the one holding the matched message, scrolled to and marked), later ones as the
 * reader reaches the end, earlier ones on request. Tool calls and thinking are collapsed; one
 * button opens or closes them all.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import {
  PARTS_PER_PAGE,
  type PartAnswer,
  type PartsAnswer,
  type PullAnswer,
  type SessionAnswer,
  type WebHit,
} from "../../src/serve/wire.js";
import { getJson, postJson } from "./api.js";
import { HitList } from "./hit-list.js";
import { useLive } from "./live.js";
import { navigate } from "./navigation.js";
import { TagEditor } from "./tag-editor.js";

interface Loaded {
  session: SessionAnswer;
  /** The parts shown, from part number `from`. */
  from: number;
  parts: PartAnswer[];
}

export function SessionPage({ id, url }: { id: string; url: URL }) {
  const entry = url.searchParams.get("entry") ?? undefined;
  const remote = url.searchParams.get("remote") ?? undefined;
  const branches = url.searchParams.get("branches") ?? undefined;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [related, setRelated] = useState<WebHit[] | null>(null);
  const [loading, setLoading] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const conversation = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setLoaded(null);
    setRelated(null);
    const shown = getJson<SessionAnswer>(`/api/sessions/${encodeURIComponent(id)}`, {
      entry,
      remote,
      branches,
    })
      .then((session) => {
        document.title = `${session.title} · recall`;
        setLoaded({ session, from: session.from, parts: session.parts });
      })
      .catch((e: Error) => setError(e.message));
    // Related sessions after the conversation: the server answers one request at a time.
    if (remote) setRelated([]);
    else
      shown
        .then(() => getJson<WebHit[]>(`/api/sessions/${encodeURIComponent(id)}/related`))
        .then(setRelated)
        .catch(() => setRelated([]));
  }, [id, entry, remote, branches]);

  // The matched message, once shown: into view and marked.
  useLayoutEffect(() => {
    if (!loaded || loaded.session.marked < 0 || !entry) return;
    const target = conversation.current?.querySelector(`[data-part="${loaded.session.marked}"]`);
    if (target && !target.classList.contains("marked")) {
      target.classList.add("marked");
      target.querySelectorAll("details").forEach((d) => (d.open = true));
      target.scrollIntoView({ block: "center" });
    }
  }, [loaded?.session.id, loaded?.session.marked]);

  const more = (from: number, place: "before" | "after") => {
    if (!loaded || loading) return;
    setLoading(true);
    const count = place === "before" ? Math.min(loaded.from, PARTS_PER_PAGE) : PARTS_PER_PAGE;
    const start = place === "before" ? loaded.from - count : from;
    getJson<PartsAnswer>(`/api/sessions/${encodeURIComponent(id)}/parts`, {
      from: String(start),
      count: String(count),
      remote,
      branches,
    })
      .then((page) =>
        setLoaded((now) =>
          now === null
            ? now
            : place === "before"
              ? { ...now, from: page.from, parts: [...page.parts, ...now.parts] }
              : { ...now, parts: [...now.parts, ...page.parts] },
        ),
      )
      .catch((e: Error) => setError(e.message))
      .finally(() => setLoading(false));
  };

  // Later parts as the reader nears the end.
  const shownTo = loaded ? loaded.from + loaded.parts.length : 0;
  useEffect(() => {
    if (!loaded || shownTo >= loaded.session.total || !end.current) return;
    const watcher = new IntersectionObserver(
      (seen) => seen.some((s) => s.isIntersecting) && more(shownTo, "after"),
      { rootMargin: "800px" },
    );
    watcher.observe(end.current);
    return () => watcher.disconnect();
  }, [loaded, shownTo, loading]);

  // New messages while the page is open: the new total, and the new parts if the end is shown.
  useLive(() => {
    if (remote) return;
    getJson<SessionAnswer>(`/api/sessions/${encodeURIComponent(id)}`, { branches })
      .then((session) =>
        setLoaded((now) =>
          now === null || session.total === now.session.total
            ? now
            : { ...now, session: { ...session, marked: now.session.marked } },
        ),
      )
      .catch(() => undefined);
  });

  if (error)
    return (
      <main class="session-page">
        <p class="error">{error}</p>
      </main>
    );
  if (!loaded)
    return (
      <main class="session-page">
        <p class="search-note">Loading…</p>
      </main>
    );
  const { session } = loaded;
  const setAll = (open: boolean) =>
    conversation.current?.querySelectorAll("details").forEach((d) => (d.open = open));
  const exportLink = (format: string, redact: boolean) =>
    `/api/sessions/${encodeURIComponent(session.id)}/export?format=${format}${redact ? "&redact=1" : ""}`;
  return (
    <main class="session-page">
      <header class="session-header">
        <h1>{session.title}</h1>
        <dl class="fields">
          {session.fields
            .filter((f) => f.label !== "Tags" && f.label !== "Resume")
            .map((f) => (
              <>
                <dt>{f.label}</dt>
                <dd>{f.code ? <code>{f.value}</code> : f.value}</dd>
              </>
            ))}
        </dl>
        {session.origin ? (
          <PullButton id={session.id} remote={session.origin.remote} />
        ) : (
          <TagEditor id={session.id} tags={session.tags} />
        )}
        <div class="resume">
          <code>{session.resume}</code>
          <button type="button" onClick={() => copy(session.resume)}>
            Copy
          </button>
        </div>
        <div class="actions">
          <button type="button" onClick={() => setAll(true)}>
            Expand all
          </button>
          <button type="button" onClick={() => setAll(false)}>
            Collapse all
          </button>
          {session.origin ? null : (
            <label class="branches">
              <input
                type="checkbox"
                checked={branches === "all"}
                onChange={(e) => showBranches(url, (e.target as HTMLInputElement).checked)}
              />{" "}
              Branches left behind
            </label>
          )}
          <span class="export" hidden={session.origin !== null}>
            Export:{" "}
            <a href={exportLink("md", false)} download>
              Markdown
            </a>{" "}
            ·{" "}
            <a href={exportLink("html", false)} download>
              HTML
            </a>{" "}
            ·{" "}
            <a href={exportLink("html", true)} download>
              HTML, redacted
            </a>
          </span>
        </div>
      </header>
      <div class="session-body">
        <div class="conversation" ref={conversation}>
          {loaded.from > 0 ? (
            <button type="button" class="earlier" onClick={() => more(loaded.from, "before")}>
              {`Show ${Math.min(loaded.from, PARTS_PER_PAGE)} earlier messages (${loaded.from} before)`}
            </button>
          ) : null}
          {loaded.parts.map((part, i) => (
            <div
              class="part"
              key={loaded.from + i}
              data-part={loaded.from + i}
              dangerouslySetInnerHTML={{ __html: part.html }}
            />
          ))}
          <div ref={end} class="end">
            {shownTo < session.total ? "Loading more…" : null}
          </div>
        </div>
        <aside class="related" hidden={session.origin !== null}>
          <h2>Related sessions</h2>
          {related === null ? (
            <p class="search-note">Looking…</p>
          ) : related.length === 0 ? (
            <p class="search-note">None found.</p>
          ) : (
            <HitList hits={related} selected={-1} />
          )}
        </aside>
      </div>
    </main>
  );
}

/**
 * Text to the clipboard (a page of 127.0.0.1 may write it); where it cannot, the line stays there
 * to select.
 */
function copy(text: string): void {
  navigator.clipboard?.writeText(text).catch(() => undefined);
}

/**
 * An archived session: written into this machine's sessions folder on request, then resumable here.
 */
function PullButton({ id, remote }: { id: string; remote: string }) {
  const [pulled, setPulled] = useState<PullAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pull = () => {
    postJson<PullAnswer>(`/api/sessions/${encodeURIComponent(id)}/pull`, {}, { remote })
      .then(setPulled)
      .catch((e: Error) => setError(e.message));
  };
  return (
    <div class="pull">
      {pulled ? (
        <p>
          {pulled.alreadyHere
            ? "Already on this machine. Resume it with "
            : "Pulled to this machine. Resume it with "}
          <code class="pulled-resume">{pulled.resume}</code>
        </p>
      ) : (
        <button type="button" onClick={pull}>
          Pull to this machine
        </button>
      )}
      {error ? <span class="error">{error}</span> : null}
    </div>
  );
}

/** The same page with or without the branches left behind (the address says which). */
function showBranches(url: URL, all: boolean): void {
  const next = new URL(url);
  if (all) next.searchParams.set("branches", "all");
  else next.searchParams.delete("branches");
  navigate(`${next.pathname}${next.search}`, true);
}
