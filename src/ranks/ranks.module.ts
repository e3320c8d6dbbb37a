import { Module } from '@nestjs/common';
import { AccountRankReader } from './account-rank-reader.service';
import { RankEngine } from './rank-engine.service';
import { LazyBoards } from './lazy-boards.service';
import { RankHistoryRecorder } from './rank-history.recorder';
import { RankReader } from './rank-reader.service';
import { RankReplicaService } from './replica/rank-replica.service';

/**
 * The rank engine: Redis sorted sets per (board, scope) kept in step by the update worker and rebuilt from
 * PostgreSQL when missing. Read by the leaderboards and the profile's ranks, which each HTTP process answers from its
 * in-memory replica of the column boards (replica/rank-replica.service.ts).
 */
@Module({
  providers: [RankEngine, RankReader, AccountRankReader, RankHistoryRecorder, LazyBoards, RankReplicaService],
  exports: [RankEngine, RankReader, AccountRankReader, RankHistoryRecorder, LazyBoards, RankReplicaService],
})
export class RanksModule {}
