import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PeriodicTask } from '../../common/lifecycle/periodic-task';
import { JsonLogger } from '../../common/logging/json-logger';
import { RankReader } from '../../ranks/rank-reader.service';
import { BoardChanges } from './board-changes.service';
import { ChangeSnapshots } from './change-snapshots.service';

/** How often the worker looks for snapshots to compute again. */
export const REFRESH_EVERY_MS = 10_000;
/** A snapshot nobody has read for this long is left to expire. */
const READ_WITHIN_MS = 10 * 60_000;

/**
 * Keeps the snapshots of the windows past 24 hours fresh from the worker (worker process only): every ten seconds,
 * each one read in the last ten minutes and still stored is computed again once it is half as old as readers accept
 * (see ChangeSnapshots.refreshAhead; what the byte budget dropped is left to its next reader, so a client walking
 * every column and window makes the worker refresh what the budget holds, not everything it read). A computation reads most of the population at a million accounts (seconds of
 * PostgreSQL and Node CPU); done here, the API only reads the stored rows, and computes a snapshot itself only when
 * none is fresh enough (the first read, or no worker running). Across workers the snapshots' lock keeps it to one
 * computation at a time.
 */
@Injectable()
export class ChangeSnapshotRefresher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly task = new PeriodicTask(
    new JsonLogger('ChangeSnapshotRefresher'),
    'changes snapshot refresh failed',
    REFRESH_EVERY_MS,
    () => this.refresh(),
  );

  constructor(
    private readonly changes: BoardChanges,
    private readonly snapshots: ChangeSnapshots,
    private readonly ranks: RankReader,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One round; returns how many snapshots it computed (also called by tests). */
  async refresh(): Promise<number> {
    const version = await this.changes.currentVersion();
    if (!version) return 0;
    let computed = 0;
    for (const { column, window } of await this.snapshots.readSince(version, Date.now() - READ_WITHIN_MS)) {
      const board = await this.ranks.scope(column, null);
      if (await this.snapshots.refreshAhead(version, board, window)) computed++;
    }
    return computed;
  }
}
