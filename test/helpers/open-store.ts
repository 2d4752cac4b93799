/**
 * The index store the library's internals take, for tests of those internals (adapters use Recall).
 */
import { resolveLocations, type LocationOverrides } from "../../src/locations.js";
import { openStore, type IndexStore } from "../../src/store.js";

export function openRecall(overrides: LocationOverrides = {}): Promise<IndexStore> {
  return openStore(resolveLocations(overrides));
}
