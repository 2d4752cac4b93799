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

export class Maintenance {
  constructor(private readonly lease: IndexLease) {}

  async watch(options: Omit<WatchOptions, "onSync"> & { onSync?: (report: SyncReport, notices: Notice[]) => void }): Promise<void> {
    const { onSync } = options;
    const { watchSessions } = await import("../../sync/watch.js");
    return watchSessions(await this.lease.store(), { ...options, onSync: onSync && ((report) => onSync(report, syncNotices(report))) });
  }

  async doctor(): Promise<DoctorCheck[]> {
    const { runDoctor } = await import("../doctor.js");
    return runDoctor(this.lease.locations, this.lease.env, this.lease.overrides.cwd!);
  }

  async reload(): Promise<void> {
    await (await this.lease.store()).native.reload();
  }
}
