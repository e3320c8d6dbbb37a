import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountLookupService } from '../account-records/account-lookup.service';
import { CARD_COUNT_SQL } from '../badges/badge-catalog.service';
import { InventorySet, V1AccountListInventorySetsResponseBody } from './dto/inventory-sets.dto';

interface CardRow {
  app_id: number;
  kind: 'card' | 'foil_card';
  name: string;
  amount: number;
}

/**
 * The caller's trading cards grouped into sets. A set needs every card of the app: the size of an app's set is the
 * platform's (its market's card list, pricing/app-card-sets.service.ts), or, until the service has read it, the
 * distinct normal cards seen across tracked inventories (a lower bound); one key look-up per app.
 */
@Injectable()
export class InventorySetsService {
  constructor(
    private readonly lookup: AccountLookupService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(accountId: number): Promise<V1AccountListInventorySetsResponseBody> {
    const account = await this.lookup.findTracked({ id: { accountId } });
    const cards: CardRow[] = await this.dataSource.query(
      `SELECT app_id, kind, name, amount FROM inventory_items
        WHERE account_id = $1 AND app_id IS NOT NULL AND kind IN ('card', 'foil_card') ORDER BY app_id, name`,
      [accountId],
    );
    const appIds = [...new Set(cards.map((card) => card.app_id))];
    const sizes: { app_id: number; size: number }[] = appIds.length
      ? await this.dataSource.query(`SELECT k.app_id, ${CARD_COUNT_SQL} AS size FROM app_card_counts k WHERE k.app_id = ANY($1)`, [appIds])
      : [];
    const sizeOf = new Map(sizes.map((row) => [row.app_id, row.size]));
    const sets = appIds.map((appId): InventorySet => {
      const normal = cards.filter((card) => card.app_id === appId && card.kind === 'card');
      const foil = cards.filter((card) => card.app_id === appId && card.kind === 'foil_card');
      // Complete: one copy of every card of the set (a set of unknown size, 0, is never complete).
      const size = sizeOf.get(appId) ?? 0;
      const complete = (held: CardRow[]) => (size > 0 && held.length >= size ? Math.min(...held.map((card) => card.amount)) : 0);
      return {
        appId,
        normal: normal.map(({ name, amount }) => ({ name, amount })),
        foil: foil.map(({ name, amount }) => ({ name, amount })),
        normalSets: complete(normal),
        foilSets: complete(foil),
      };
    });
    return {
      sets,
      ...(account.updatedAt ? { inventoryUpdatedAt: account.updatedAt.getTime() } : {}),
      nextRefreshAt: Math.ceil(account.nextAllowedTime.getTime() / 1000),
    };
  }
}
