/** Opening recall for a sessions directory: where things are, and the index over them. */
import { resolveLocations, type LocationOverrides, type Locations } from "../locations.js";
import { openStore, type IndexStore } from "../store.js";

export function openRecall(overrides: LocationOverrides = {}): IndexStore {
  return openStore(resolveLocations(overrides));
}

export { storeInPlace } from "../store.js";

export type { IndexStore, Locations, LocationOverrides };
