/**
 * The facade's upkeep of the index besides syncing (the lease's, since every query may sync): the
 * watch that keeps it up to date as Pi writes, the doctor's checks, seeing other processes'
 * commits. Watch and doctor are imported when first used: a cold search evaluates neither.
 */
import type { DoctorCheck } from "../doctor.js";
import { syncNotices, type Notice } from "../notices.js";
import type { SyncReport } from "../../sync/sync.js";
import type { WatchOptions } from "../../sync/watch.js";
import type { IndexLease } from "./lease.js";
import type { MeaningIndexing } from "./meaning.js";

export class Maintenance {
  constructor(private readonly lease: IndexLease) {}

  async watch(
    options: Omit<WatchOptions, "onSync"> & {
      onSync?: (report: SyncReport, notices: Notice[]) => void;
      meaning?: MeaningIndexing;
    },
  ): Promise<void> {
    const { onSync, meaning } = options;
    const { watchSessions } = await import("../../sync/watch.js");
    // With the meaning index: each sync is followed by embedding what it added (api/meaning.ts).
    const { MeaningFollower, meaningUnavailable } = await import("../meaning.js");
    if (meaning && !(await this.lease.meaning())) throw meaningUnavailable();
    const follower =
      meaning &&
      new MeaningFollower(
        () => meaning.build({ signal: options.signal }),
        (error) => options.onError?.(error),
      );
    const synced = (report: SyncReport) => {
      onSync?.(report, syncNotices(report));
      follower?.synced();
    };
    try {
      return await watchSessions(await this.lease.store(), { ...options, onSync: synced });
    } finally {
      await follower?.settled();
    }
  }

  async doctor(): Promise<DoctorCheck[]> {
    const { runDoctor } = await import("../doctor.js");
    return runDoctor(this.lease.locations, this.lease.env, this.lease.overrides.cwd!);
  }

  async reload(): Promise<void> {
    await (await this.lease.store()).native.reload();
  }
}
