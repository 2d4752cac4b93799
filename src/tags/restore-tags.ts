/**
 * Tags back from the index when the tag database was found empty (0 bytes: a crash of another
 * tool, a full disk, a bad copy). The index keeps a copy of every session's tags, and without this
 * the new, empty database would be applied to it as a replaced one, wiping that copy too. A tag
 * database that is gone (deleted on purpose) is not restored: its tags are gone, as the user meant.
 */
import type { IndexStore } from "../store.js";
import { addTagNotice, tagsFor } from "./open-tags.js";

export async function restoreEmptiedTags(store: IndexStore): Promise<void> {
  const tags = await tagsFor(store);
  if (!tags.needsRestore()) return;
  const { sessions } = await store.native.stats();
  const listed = await store.native.list({ limit: Math.max(1, sessions) });
  const restored = await tags.restore(
    new Map(listed.filter((s) => s.tags.length > 0).map((s) => [s.id, s.tags])),
  );
  if (restored === undefined) return;
  addTagNotice(
    store,
    `the tag database ${tags.path} was empty (0 bytes); restored the tags of ${restored} session${restored === 1 ? "" : "s"} from the index (all as manual tags)`,
  );
}
