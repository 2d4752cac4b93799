/** How a sync that ran before a command is reported: only what the user should know, on stderr. */
import type { SyncReport } from "../sync/sync.js";

export function syncNotices(report: SyncReport): string[] {
  const notices: string[] = [...report.notices];
  if (report.busy) {
    notices.push("another recall process is updating the index; results may miss the newest sessions");
  }
  if (report.failed.length === 1) {
    const [failure] = report.failed;
    notices.push(`skipped ${failure!.path}: ${failure!.reason}`);
  } else if (report.failed.length > 1) {
    notices.push(`skipped ${report.failed.length} unreadable session files (\`recall index\` lists them)`);
  }
  return notices;
}
