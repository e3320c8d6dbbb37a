import { Module } from '@nestjs/common';
import { AccountRankReader } from './account-rank-reader.service';
import { RankEngine } from './rank-engine.service';
import { LazyBoards } from './lazy-boards.service';
import { RankHistoryRecorder } from './rank-history.recorder';
import { RankReader } from './rank-reader.service';

/**
 * The rank engine: Redis sorted sets per (board, scope) kept in step by the update worker and rebuilt from
 * PostgreSQL when missing. Read by the leaderboards and the profile's ranks.
 */
@Module({
  providers: [RankEngine, RankReader, AccountRankReader, RankHistoryRecorder, LazyBoards],
  exports: [RankEngine, RankReader, AccountRankReader, RankHistoryRecorder, LazyBoards],
})
export class RanksModule {}
