import { Module } from '@nestjs/common';
import { AccountRankReader } from './account-rank-reader.service';
import { RankEngine } from './rank-engine.service';
import { LazyBoards } from './lazy-boards.service';
import { RankHistoryRecorder } from './rank-history.recorder';
import { RankReader } from './rank-reader.service';
import { RankReplicaService } from './replica/rank-replica.service';

/**
 * # Ranks
 *
 * Every leaderboard and every rank in a profile is answered here. PostgreSQL's account rows are the truth; Redis holds
 * the boards as sorted sets per (board, scope), so a rank, a window or a board's size is O(log N); each HTTP process
 * holds the column boards once more in memory for the profile's ranks. Order on every board: score descending, then
 * the lower account id; accounts scoring 0 are kept in no set and share the last rank.
 *
 * Where to start reading: `account-boards.ts` (which boards exist and what scores each), `rank-scopes.ts` (an
 * account's location cell and its five scope keys: global, region, country, state, city), then the engine's two
 * sides, `rank-engine.service.ts` (writes) and `rank-reader.service.ts` (reads).
 *
 * The files, by part:
 * - **Engine, the writer** (`rank-engine.service.ts`): `place(ids)` re-reads the accounts' rows (`rank-rows.ts`) and
 *   runs `place-account.lua.ts` for each, one atomic step that moves the account out of the scopes of the cell it
 *   was stored with and into those of its row. `rebuild()` fills every column board from PostgreSQL a group at a
 *   time (`rank-build.ts`) under a version (`rank-keys.ts`: every served key sits under `…:ranks:v<N>:`), on first
 *   boot, after a flush or a restore.
 * - **Reader** (`rank-reader.service.ts`): narrows a board to a scope (a union for several locations), reads ranks,
 *   windows, the zero tail from PostgreSQL; its one-round-trip scripts are `global-ranks.lua.ts` (a page of
 *   leaders' global ranks) and `preview-place.lua.ts` (`leaderboard.previewAccountRank`).
 *   `account-rank-reader.service.ts` reads one account across every column board (`profile-ranks.lua.ts`,
 *   scope keys derived in Lua by `cell-scopes.lua.ts` as `rank-scopes.ts` derives them), answered as `column-ranks.ts`.
 * - **Lazy boards** (`lazy-boards.service.ts`, sources in `lazy-board-sources.ts`): per-app and per-badge boards,
 *   built from PostgreSQL on their first read, placed like the column boards while they exist, and evicted least
 *   recently read first beyond `RANK_LAZY_BUDGET` entries.
 * - **Replica** (`replica/`): the column boards in each HTTP process's memory (`rank-replica.ts`, one
 *   `ranked-set.ts` per board and scope, ordered by `board-order.ts`), loaded from PostgreSQL and kept in step with
 *   the engine's placements by `rank-replica.service.ts`; the profile falls back to Redis while it is not complete.
 * - **History** (`rank-history.recorder.ts`): a daily point per board and the best rank per scope, in PostgreSQL
 *   (`entities/`), which the engine alone cannot answer later.
 *
 * How a placement flows: an update run commits the account's row (refresh's `AccountUpdater`, or a settings change),
 * then calls `RankEngine.place` (column boards in Redis; the placed rows go to the replicas), `LazyBoards.place`
 * (the lazy boards that exist for the apps and badges it held before and holds now) and `RankHistoryRecorder.record`.
 * A reader then sees the new ranks in Redis and in every process's replica before the update is announced complete.
 * docs/architecture.md: "The rank engine", "The rank replica".
 */
@Module({
  providers: [RankEngine, RankReader, AccountRankReader, RankHistoryRecorder, LazyBoards, RankReplicaService],
  exports: [RankEngine, RankReader, AccountRankReader, RankHistoryRecorder, LazyBoards, RankReplicaService],
})
export class RanksModule {}
