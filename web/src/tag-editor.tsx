/**
 * A session's tags, edited in place: remove one with its ×, add some by typing them (Enter),
 * suggested from the index's tags.
 */
import { useEffect, useState } from "preact/hooks";
import type { TagsAnswer } from "../../src/serve/wire.js";
import { getJson, postJson } from "./api.js";

export function TagEditor({ id, tags: initial }: { id: string; tags: string[] }) {
  const [tags, setTags] = useState(initial);
  const [known, setKnown] = useState<string[]>([]);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setTags(initial), [id, initial.join(" ")]);
  useEffect(() => {
    getJson<Array<{ tag: string }>>("/api/tags")
      .then((all) => setKnown(all.map((t) => t.tag)))
      .catch(() => undefined);
  }, []);

  const edit = (change: { add?: string[]; remove?: string[] }) => {
    postJson<TagsAnswer>(`/api/sessions/${encodeURIComponent(id)}/tags`, change)
      .then((answer) => {
        setTags(answer.tags);
        setKnown(answer.all.map((t) => t.tag));
        setError(null);
      })
      .catch((e: Error) => setError(e.message));
  };

  return (
    <div class="tag-editor">
      {tags.map((tag) => (
        <span class="tag" key={tag}>
          {`#${tag}`}
          <button
            type="button"
            aria-label={`Remove tag ${tag}`}
            onClick={() => edit({ remove: [tag] })}
          >
            ×
          </button>
        </span>
      ))}
      <input
        list="known-tags"
        aria-label="Add tags"
        placeholder="add tag"
        value={typed}
        onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter" || !typed.trim()) return;
          edit({ add: typed.split(/[\s,]+/).filter(Boolean) });
          setTyped("");
        }}
      />
      <datalist id="known-tags">
        {known.map((tag) => (
          <option value={tag} key={tag} />
        ))}
      </datalist>
      {error ? <span class="error">{error}</span> : null}
    </div>
  );
}
