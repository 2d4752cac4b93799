/**
 * `recall push --check-secrets`: what a push would redact, and where — a dry run of the push
 * (push.ts: it reads and redacts every document and kept file as a push does, and sends nothing),
 * its redactions gathered by kind and place (documents.ts's places, `kept-file`) and by session.
 */
import type { IdentifiedDocument } from "./documents.js";
import type { KeptFile } from "./kept-files.js";
import { push, type PushOptions, type PushReport } from "./push.js";
import type { Locations } from "../locations.js";
import type { Remote } from "./remotes.js";

export interface SecretFind {
  kind: string;
  place: string;
  count: number;
}

export interface SessionSecrets {
  session_id: string;
  /** The session's name, as it would be sent (redacted); undefined for a session without one. */
  name: string | undefined;
  /** Its redactions, by kind and place, most first. */
  secrets: SecretFind[];
}

export interface SecretCheckReport {
  /** The dry run's report: its `redactedIn` gives the totals by place and kind. */
  report: PushReport;
  /** The sessions a push would redact something in, in the order the push met them. */
  sessions: SessionSecrets[];
}

export async function checkSecrets(
  locations: Locations,
  remote: Remote,
  env: NodeJS.ProcessEnv,
  options: Pick<PushOptions, "cwd" | "repo" | "since"> = {},
): Promise<SecretCheckReport> {
  const bySession = new Map<
    string,
    { name: string | undefined; counts: Map<string, SecretFind> }
  >();
  const add = (
    sessionId: string,
    name: string | undefined,
    place: string,
    kinds: Record<string, number>,
  ) => {
    for (const [kind, count] of Object.entries(kinds)) {
      const session =
        bySession.get(sessionId) ??
        bySession.set(sessionId, { name, counts: new Map() }).get(sessionId)!;
      session.name ??= name;
      const key = `${kind}\u0000${place}`;
      const find =
        session.counts.get(key) ?? session.counts.set(key, { kind, place, count: 0 }).get(key)!;
      find.count += count;
    }
  };
  const report = await push(locations, remote, env, {
    ...options,
    dryRun: true,
    onDocument: ({ document, places }: IdentifiedDocument) => {
      for (const [place, kinds] of Object.entries(places))
        add(document.session_id, document.session_name, place, kinds);
    },
    onFile: (file: KeptFile, redacted: Record<string, number>) =>
      add(file.session_id, undefined, "kept-file", redacted),
  });
  const sessions = [...bySession].map(([session_id, { name, counts }]) => ({
    session_id,
    name,
    secrets: [...counts.values()].sort((a, b) => b.count - a.count),
  }));
  return { report, sessions };
}
