import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { levelWalkSql } from '../common/sql/level-walk';
import { FriendGraphCache } from '../accounts/friends/friend-graph-cache.service';
import { NeighbourReader } from '../accounts/friends/friend-search';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { Principal } from '../common/auth/principal';
import { FindOwnersRequestBody, FindOwnersResponseBody, Owner } from './dto/find-owners.dto';
import { ownerPaths } from './owner-paths';
import { steamId64Of } from '../account-records/account.enums';

interface OwnerRow {
  grp: string;
  account_id: number;
  amount: number;
  asset_id: string;
}

/** A page of each class's owners, most copies first, walked level by level (see levelWalkSql). */
const OWNERS_PAGE = levelWalkSql({
  table: 'inventory_items',
  group: 'class_id',
  groupType: 'text',
  value: 'amount',
  columns: ['amount', 'asset_id'],
});

/**
 * `item.findOwners`: who holds given cards or booster packs, most copies first (a level walk of
 * ix_inventory_items_class_id), with the maintained owner counts (item_class_owners). For a signed-in caller, a
 * search of the friend graph from both ends (ownerPaths) gives each listed owner's friend path within `maxDepth`,
 * over the graph in memory (FriendGraphCache, in step with every update announced complete before the request, as
 * `account.findFriendPath` reads it).
 */
@Injectable()
export class ItemOwnersService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    private readonly graph: FriendGraphCache,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async find(request: FindOwnersRequestBody, caller: Principal | undefined): Promise<FindOwnersResponseBody> {
    const classIds = [...new Set((request.itemIds ?? []).map(String))];
    const perItem = request.ownersPerItem ?? 10;
    // The graph applies the updates completed before the request (FriendGraphCache.reader) while the page is read.
    const [walked, totals, read]: [OwnerRow[], Map<string, number>, NeighbourReader | null] = await Promise.all([
      this.dataSource.query(OWNERS_PAGE, [classIds, request.offset ?? 0, perItem, null, null]),
      this.totals(classIds),
      caller ? this.graph.reader() : null,
    ]);
    const rows = firstOfEachGroup(walked, perItem);
    const owners = [...new Set(rows.map((row) => row.account_id))];
    const paths =
      caller && read && owners.length
        ? await ownerPaths(read, caller.accountId, owners, request.maxDepth ?? 4)
        : new Map<number, number[]>();
    const { cards: all, hidden } = await this.accounts.withHidden([
      ...new Set([...rows.map((row) => row.account_id), ...[...paths.values()].flat()]),
    ]);
    // Accounts that chose to be hidden keep their places, as null accounts (the caller still sees itself).
    const shown = (id: number) => !hidden.has(id) || id === caller?.accountId;
    const cards = { get: (id: number) => (shown(id) ? all.get(id) : undefined) };
    return {
      items: classIds.map((classId) => ({
        classId: Number(classId),
        totalOwners: totals.get(classId) ?? 0,
        owners: rows
          .filter((row) => row.grp === classId)
          .map((row): Owner => {
            const path = paths.get(row.account_id);
            return {
              account: cards.get(row.account_id) ?? null,
              amount: row.amount,
              assetId: Number(row.asset_id),
              pathFound: Boolean(path),
              ...(path
                ? {
                    distance: path.length - 1,
                    path: path.map((id) => cards.get(id) ?? null),
                    // Untracked hops have no card but are named, as account.findFriendPath names them; hidden ones stay
                    // unnamed (their card is withheld too).
                    steamIds: path.map((id) => (shown(id) ? steamId64Of(id) : null)),
                  }
                : {}),
            };
          }),
      })),
    };
  }

  /** The maintained owner counts (item_class_owners): one primary-key read per class, never a count of the owners. */
  private async totals(classIds: string[]): Promise<Map<string, number>> {
    const rows: { class_id: string; owners: number }[] = await this.dataSource.query(
      'SELECT class_id, owners FROM item_class_owners WHERE class_id = ANY($1)',
      [classIds],
    );
    return new Map(rows.map((row) => [row.class_id, row.owners]));
  }
}

/** The first `limit` rows of each group of a level walk (a group may return more: each level is capped alone). */
function firstOfEachGroup<T extends { grp: string }>(rows: T[], limit: number): T[] {
  const seen = new Map<string, number>();
  return rows.filter((row) => {
    const n = (seen.get(row.grp) ?? 0) + 1;
    seen.set(row.grp, n);
    return n <= limit;
  });
}
