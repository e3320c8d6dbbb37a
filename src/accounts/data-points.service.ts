import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { toAppBadge } from '../apps/mappers/app-badge.mapper';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import { V1AccountGetDataPointsResponseBody } from './dto/data-points.dto';

interface HeldBadge {
  badge_id: number;
  level: number;
  xp: number;
  completion_time: Date;
}

/** `account.getDataPoints`: the series the profile charts draw. */
@Injectable()
export class DataPointsService {
  constructor(
    private readonly lookup: AccountLookupService,
    private readonly catalog: BadgeCatalogService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async get(selector: AccountSelector): Promise<V1AccountGetDataPointsResponseBody> {
    const { accountId } = await this.lookup.findTracked(selector);
    const held = (order: string): Promise<HeldBadge[]> =>
      this.dataSource.query(
        `SELECT ab.badge_id, ab.level, ab.xp, ab.completion_time FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
          WHERE ab.account_id = $1 ORDER BY ${order}, ab.badge_id LIMIT 10`,
        [accountId],
      );
    const [mostXp, rarest, playtime, months] = await Promise.all([
      held('ab.xp DESC'),
      held('b.scarcity ASC'),
      this.dataSource.query(
        `SELECT aa.app_id AS "appId", a.name, a.icon AS image, aa.playtime FROM account_apps aa JOIN apps a ON a.app_id = aa.app_id
          WHERE aa.account_id = $1 AND aa.playtime > 0 ORDER BY aa.playtime DESC, aa.app_id LIMIT 20`,
        [accountId],
      ),
      this.dataSource.query(
        `SELECT to_char(completion_time AT TIME ZONE 'UTC', 'YYYY') AS year, to_char(completion_time AT TIME ZONE 'UTC', 'MM') AS month,
                sum(xp)::int AS xp
           FROM account_badges WHERE account_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [accountId],
      ) as Promise<{ year: string; month: string; xp: number }[]>,
    ]);
    const statistics = new Map((await this.catalog.byIds([...mostXp, ...rarest].map((b) => b.badge_id))).map((b) => [b.id, b]));
    const toBadge = (row: HeldBadge) =>
      toAppBadge(statistics.get(row.badge_id)!, { completionTime: row.completion_time.toISOString(), level: row.level, xp: row.xp });
    const xp: Record<string, Record<string, number>> = {};
    for (const { year, month, xp: gained } of months) (xp[year] ??= {})[month] = gained;
    return { mostXp: mostXp.map(toBadge), scarcity: rarest.map(toBadge), playtime, xp };
  }
}
