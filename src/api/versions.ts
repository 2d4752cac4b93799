/** What `recall --version` reports: the package's version and the loaded native core's. */
import { nativeModule } from "../native/binding.js";
import { RECALL_VERSION } from "../version.js";

export interface Versions {
  /** The package (its JavaScript). */
  recall: string;
  /** The native search core that loaded with it; loading fails when it is of another release. */
  core: string;
}

export function versions(): Versions {
  return { recall: RECALL_VERSION, core: nativeModule().coreVersion() };
}
