import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FriendGraphService, Reach } from '../accounts/friend-graph.service';
import { LeaderboardAccountsService } from '../accounts/leaderboard-accounts.service';
import { Principal } from '../auth/principal';
import { FindOwnersRequestBody, FindOwnersResponseBody, Owner } from './dto/find-owners.dto';

interface OwnerRow {
  class_id: string;
  account_id: number;
  amount: number;
  asset_id: string;
  total: number;
}

/**
 * `item.findOwners`: who holds given cards or booster packs, most copies first. For a signed-in caller one
 * search of the friend graph (up to `maxDepth`) gives every owner's friend path.
 */
@Injectable()
export class ItemOwnersService {
  constructor(
    private readonly accounts: LeaderboardAccountsService,
    private readonly graph: FriendGraphService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async find(request: FindOwnersRequestBody, caller: Principal | undefined): Promise<FindOwnersResponseBody> {
    const classIds = [...new Set((request.itemIds ?? []).map(String))];
    const rows: OwnerRow[] = await this.dataSource.query(
      `SELECT class_id, account_id, amount, asset_id, total FROM (
         SELECT class_id, account_id, amount, asset_id, count(*) OVER (PARTITION BY class_id)::int AS total,
                row_number() OVER (PARTITION BY class_id ORDER BY amount DESC, account_id) AS position
           FROM inventory_items WHERE class_id = ANY($1)) ranked
        WHERE position > $2 AND position <= $2 + $3
        ORDER BY class_id, position`,
      [classIds, request.offset ?? 0, request.ownersPerItem ?? 10],
    );
    const reach = caller ? await this.graph.reach(caller.accountId, request.maxDepth ?? 4) : null;
    const paths = new Map<number, number[]>();
    for (const row of rows)
      if (reach?.distance.has(row.account_id)) paths.set(row.account_id, FriendGraphService.paths(reach as Reach, row.account_id, 1)[0]);
    const cards = await this.accounts.byIds([...new Set([...rows.map((row) => row.account_id), ...[...paths.values()].flat()])]);
    const totals = await this.totals(classIds, rows);
    return {
      items: classIds.map((classId) => ({
        classId: Number(classId),
        totalOwners: totals.get(classId) ?? 0,
        owners: rows
          .filter((row) => row.class_id === classId)
          .map((row): Owner => {
            const path = paths.get(row.account_id);
            return {
              account: cards.get(row.account_id) ?? null,
              amount: row.amount,
              assetId: Number(row.asset_id),
              pathFound: Boolean(path),
              ...(path ? { distance: path.length - 1, path: path.map((id) => cards.get(id) ?? null) } : {}),
            };
          }),
      })),
    };
  }

  /** Owner counts; a page past the last owner carries none, so those items are counted on their own. */
  private async totals(classIds: string[], rows: OwnerRow[]): Promise<Map<string, number>> {
    const totals = new Map(rows.map((row) => [row.class_id, row.total]));
    const missing = classIds.filter((id) => !totals.has(id));
    if (missing.length) {
      const counted: { class_id: string; total: number }[] = await this.dataSource.query(
        'SELECT class_id, count(*)::int AS total FROM inventory_items WHERE class_id = ANY($1) GROUP BY class_id',
        [missing],
      );
      for (const row of counted) totals.set(row.class_id, row.total);
    }
    return totals;
  }
}
