/**
 * The web app of `recall serve`: search, a session, activity; the address says which, so every page
 * can be bookmarked.
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ServeInfo } from "../../src/serve/wire.js";
import { ActivityPage } from "./activity-page.js";
import { getJson } from "./api.js";
import { followLink, useLocation } from "./navigation.js";
import { SearchPage } from "./search-page.js";
import { SessionPage } from "./session-page.js";

function App() {
  const url = useLocation();
  const [info, setInfo] = useState<ServeInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getJson<ServeInfo>("/api/info")
      .then(setInfo)
      .catch((e: Error) => setError(e.message));
  }, []);

  const session = /^\/session\/([^/]+)$/.exec(url.pathname);
  const page = url.pathname === "/activity" ? "activity" : session ? "session" : "search";
  useEffect(() => {
    if (page !== "session") document.title = page === "activity" ? "Activity · recall" : "recall";
  }, [page]);

  return (
    <>
      <nav class="top">
        <a class="brand" href="/" onClick={(e) => followLink(e, "/")}>
          recall
        </a>
        <a href="/" class={page === "search" ? "current" : ""} onClick={(e) => followLink(e, "/")}>
          Search
        </a>
        <a
          href="/activity"
          class={page === "activity" ? "current" : ""}
          onClick={(e) => followLink(e, "/activity")}
        >
          Activity
        </a>
        {info ? <span class="where">{info.project || info.folder}</span> : null}
      </nav>
      {error ? <p class="error">{error}</p> : null}
      {page === "session" ? (
        <SessionPage key={session![1]} id={decodeURIComponent(session![1]!)} url={url} />
      ) : page === "activity" ? (
        <ActivityPage url={url} />
      ) : info === null ? null : (
        <SearchPage info={info} url={url} />
      )}
    </>
  );
}

render(<App />, document.getElementById("app")!);
