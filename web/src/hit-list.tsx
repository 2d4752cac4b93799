/**
 * Sessions as a search lists them: title, where and when, tags, the snippet with its matched words
 * marked.
 */
import type { WebHit } from "../../src/serve/wire.js";
import { age, count } from "./format.js";
import { followLink } from "./navigation.js";

export function sessionLink(hit: Pick<WebHit, "id" | "entryId" | "origin">, query = ""): string {
  const params = new URLSearchParams();
  if (hit.entryId) params.set("entry", hit.entryId);
  if (query) params.set("q", query);
  if (hit.origin) params.set("remote", hit.origin.remote);
  const text = params.toString();
  return `/session/${encodeURIComponent(hit.id)}${text ? `?${text}` : ""}`;
}

export function HitList({
  hits,
  selected,
  query = "",
  onHover,
}: {
  hits: WebHit[];
  selected: number;
  query?: string;
  onHover?: (i: number) => void;
}) {
  return (
    <ol class="hits" role="listbox">
      {hits.map((hit, i) => {
        const to = sessionLink(hit, query);
        return (
          <li
            key={hit.id}
            class={i === selected ? "hit selected" : "hit"}
            role="option"
            aria-selected={i === selected}
            onMouseEnter={() => onHover?.(i)}
          >
            <a href={to} onClick={(e) => followLink(e, to)}>
              <div class="hit-title">
                <span class="title">{hit.title}</span>
                {hit.matchedBy && hit.matchedBy !== "words" ? (
                  <span class="badge">
                    {hit.matchedBy === "meaning" ? "by meaning" : "words + meaning"}
                  </span>
                ) : null}
              </div>
              <div class="hit-meta">
                {hit.origin ? (
                  <span class="origin">{`${hit.origin.user}@${hit.origin.machine}`}</span>
                ) : null}
                <span>{hit.project || hit.folder}</span>
                <span>{age(hit.modified)}</span>
                <span>{count(hit.messages, "message")}</span>
                {hit.tags.map((tag) => (
                  <span class="tag" key={tag}>{`#${tag}`}</span>
                ))}
              </div>
              <p class="snippet">
                {hit.snippet.map((piece, j) =>
                  piece.match ? <mark key={j}>{piece.text}</mark> : piece.text,
                )}
              </p>
            </a>
          </li>
        );
      })}
    </ol>
  );
}
