import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { publicBadgeId } from '../badges/badge-catalog.service';
import { AccountLookupService } from '../account-records/account-lookup.service';
import { V1AccountBadgeOwnedBadgesResponseBody, V1AccountListCraftedLevelsResponseBody } from './dto/own-badges.dto';

interface HeldBadge {
  id: number;
  app_id: number | null;
  is_foil: boolean;
  level: number;
  platform_badge_id: number;
}

/** The calling account's own badges, in the compact forms the web app's tools use. */
@Injectable()
export class OwnBadgesService {
  constructor(
    private readonly lookup: AccountLookupService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async ownedBadges(accountId: number): Promise<V1AccountBadgeOwnedBadgesResponseBody> {
    await this.lookup.findTracked({ id: { accountId } });
    const badges = await this.held(accountId);
    return {
      ownedBadges: badges.map((b) => ({
        appId: b.app_id ?? 0,
        badgeId: publicBadgeId(b.id),
        isFoil: b.is_foil,
        level: b.level,
        steamId: b.platform_badge_id,
      })),
    };
  }

  async craftedLevels(accountId: number): Promise<V1AccountListCraftedLevelsResponseBody> {
    const account = await this.lookup.findTracked({ id: { accountId } });
    const gameBadges = (await this.held(accountId)).filter((b) => b.app_id !== null);
    return {
      badgesUpdatedAt: account.updatedAt?.toISOString() ?? null,
      foil: gameBadges.filter((b) => b.is_foil).map((b) => b.app_id!),
      normal: gameBadges.filter((b) => !b.is_foil).map((b) => ({ appId: b.app_id!, level: b.level })),
    };
  }

  private held(accountId: number): Promise<HeldBadge[]> {
    return this.dataSource.query(
      `SELECT b.id, b.app_id, b.is_foil, ab.level, b.platform_badge_id
         FROM account_badges ab JOIN badges b ON b.id = ab.badge_id
        WHERE ab.account_id = $1 ORDER BY b.app_id NULLS FIRST, b.is_foil, b.id`,
      [accountId],
    );
  }
}
