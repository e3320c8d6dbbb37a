import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { V1Stats } from './dto/v1-stats.dto';

/** Profile counters summed by stats.getStats, as `wire name → accounts column`. */
const SUMMED_COLUMNS: [keyof V1Stats, string][] = [
  ['apps', 'apps'],
  ['awardsGiven', 'awards_given'],
  ['awardsReceived', 'awards_received'],
  ['badges', 'badges'],
  ['bans', 'bans'],
  ['foilBadges', 'foil_badges'],
  ['friends', 'friends'],
  ['gameBans', 'game_bans'],
  ['level', 'level'],
  ['normalBadges', 'normal_badges'],
  ['playtime', 'playtime'],
  ['pointsGiven', 'points_given'],
  ['pointsReceived', 'points_received'],
  ['steamSetsScore', 'site_score'],
  ['vacBans', 'vac_bans'],
  ['xp', 'xp'],
];

/** Platform-wide totals, aggregated from what is stored. */
@Injectable()
export class StatsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async getStats(): Promise<V1Stats> {
    const sums = SUMMED_COLUMNS.map(([field, column]) => `COALESCE(SUM(${column}), 0)::bigint AS "${field}"`).join(', ');
    const [row] = await this.dataSource.query(
      `SELECT COUNT(*)::bigint AS "totalAccounts",
              COUNT(*)::bigint AS "accountsAdded",
              COUNT(updated_at)::bigint AS "accountsUpdated",
              (SELECT COALESCE(SUM(playtime), 0) FROM account_apps)::bigint AS "appPlaytime",
              ${sums}
         FROM accounts`,
    );
    const stats = new V1Stats();
    for (const [field, value] of Object.entries(row as Record<string, string>)) {
      (stats as unknown as Record<string, number>)[field] = Number(value);
    }
    return stats;
  }
}
