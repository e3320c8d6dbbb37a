import { Module } from '@nestjs/common';
import { RanksModule } from '../../ranks/ranks.module';
import { BoardChanges } from './board-changes.service';
import { ChangeSnapshotComputer } from './change-snapshot-computer';
import { ChangeSnapshots } from './change-snapshots.service';

/**
 * The movers of leaderboard.getChanges, kept in Redis: placed by the update writer, rebuilt from PostgreSQL. The
 * worker also runs ChangeSweeper (RefreshWorkerModule) to slide the windows; the API reads them through
 * ChangesService and ChangeSnapshots.
 */
@Module({
  imports: [RanksModule],
  providers: [BoardChanges, ChangeSnapshotComputer, ChangeSnapshots],
  exports: [BoardChanges, ChangeSnapshots],
})
export class BoardChangesModule {}
