/**
 * The compiled search core (native/recall.node, built by scripts/build-native.mjs) and the types
 * of its N-API surface. Only src/ modules import this; adapters go through the library.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { RecallError } from "../errors.js";

export interface NativeSession {
  id: string;
  path: string;
  cwd: string;
  name?: string | null;
  /** ms since epoch */
  created: number;
  /** ms since epoch: the last message */
  modified: number;
  messageCount: number;
  firstMessage: string;
  parent?: string | null;
  tags: string[];
}

export interface NativeMessageRef {
  index: number;
  role: string;
  entryId: string;
  timestamp: number;
}

export interface NativeHit {
  session: NativeSession;
  score: number;
  message?: NativeMessageRef | null;
  snippet: string;
  /** UTF-8 byte offsets into `snippet` */
  spans: { start: number; end: number }[];
}

export interface NativeFilters {
  cwds?: string[];
  sessionIds?: string[];
  excludeSessionIds?: string[];
  since?: number;
  until?: number;
}

export interface NativeSearchRequest {
  query: string;
  limit: number;
  prefix?: boolean;
  filters?: NativeFilters;
  now?: number;
  recencyWeight?: number;
  coordination?: number;
  snippetChars?: number;
}

export interface NativeStats {
  documents: number;
  sessions: number;
  stamp: string;
}

export interface NativeApplyCounts {
  removedPaths: number;
  sessions: number;
  messages: number;
  tagUpdates: number;
}

export interface NativeIndex {
  stats(): NativeStats;
  reload(): void;
  lock(timeoutMs: number, heavy?: boolean): Promise<void>;
  apply(changesJson: string): Promise<NativeApplyCounts>;
  clear(): void;
  commit(stamp: string): Promise<void>;
  unlock(): Promise<void>;
  search(request: NativeSearchRequest, signal?: AbortSignal): Promise<NativeHit[]>;
  list(request: { limit: number; filters?: NativeFilters }): Promise<NativeSession[]>;
}

interface NativeModule {
  NativeIndex: { open(dir: string): NativeIndex };
}

let loaded: NativeModule | undefined;

export function nativeModule(): NativeModule {
  if (loaded) return loaded;
  const addonPath = fileURLToPath(new URL("../../native/recall.node", import.meta.url));
  try {
    loaded = createRequire(import.meta.url)(addonPath) as NativeModule;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new RecallError("INTERNAL", `cannot load the search core ${addonPath} (${reason}); run \`npm install\` in the recall package to build it`);
  }
  return loaded;
}
