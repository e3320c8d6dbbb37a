import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BadgeCatalogService } from '../badges/badge-catalog.service';
import { notFound } from '../common/problem/problem.exception';
import { AccountBadgeInfo, V1AppListBadgesResponseBody } from './dto/app-badges.dto';
import { toAppBadge } from './mappers/app-badge.mapper';
import { idsForGenericPlan } from '../common/sql/generic-plan-ids';

/** `app.listBadges`: the badges of one app with holder statistics, and the caller's own progress on them. */
@Injectable()
export class AppBadgesService {
  constructor(
    private readonly catalog: BadgeCatalogService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async listBadges(appId: number, callerAccountId: number | null): Promise<V1AppListBadgesResponseBody> {
    const badges = await this.catalog.forApp(appId);
    if (!badges.length && !(await this.catalog.appExists(appId))) throw notFound(`App ${appId} is not known to this service.`);
    const held =
      callerAccountId === null
        ? new Map<number, AccountBadgeInfo>()
        : await this.heldBy(
            callerAccountId,
            badges.map((b) => b.id),
          );
    return { badges: badges.map((badge) => toAppBadge(badge, held.get(badge.id))) };
  }

  private async heldBy(accountId: number, badgeIds: number[]): Promise<Map<number, AccountBadgeInfo>> {
    if (!badgeIds.length) return new Map();
    const rows: { badge_id: number; level: number; xp: number; completion_time: Date }[] = await this.dataSource.query(
      'SELECT badge_id, level, xp, completion_time FROM account_badges WHERE account_id = $1 AND badge_id = ANY($2)',
      [accountId, idsForGenericPlan(badgeIds)],
    );
    return new Map(rows.map((row) => [row.badge_id, { completionTime: row.completion_time.toISOString(), level: row.level, xp: row.xp }]));
  }
}
