import { BadgeStatistics, badgeName, commonBadgeFields } from '../../badges/badge-catalog.service';
import { appTypeOf, maxLevelOf } from '../../badges/badge-filters';
import { steamId64Of } from '../../account-records/account.enums';
import { ComparedTuple, ResolvedAccount, TupleAccount } from '../dto/compare-badges.dto';
import { AccountEntity } from '../../account-records/entities/account.entity';

/** One compared account's hold of a badge. */
export interface Holding {
  level: number;
  xp: number;
  completionTime: Date;
}

export function toResolvedAccount(account: AccountEntity): ResolvedAccount {
  const vanity = account.siteVanity ?? account.platformVanity;
  return { accountId: account.accountId, steamId: steamId64Of(account.accountId), avatar: account.avatar, ...(vanity ? { vanity } : {}) };
}

/** `ComparedTuple`: the badge, then every compared account in order (level 0 and no `completedAt` when it lacks it). */
export function toComparedTuple(badge: BadgeStatistics, accountIds: number[], holdings: Map<number, Holding>): ComparedTuple {
  const common = commonBadgeFields(badge);
  return {
    appId: common.appId,
    appName: common.appName,
    appImage: common.appImage,
    appType: appTypeOf(badge),
    badgeName: badgeName(badge),
    badgeImage: badge.image,
    steamId: common.steamId,
    isEvent: common.isEvent,
    isFoil: common.isFoil,
    isSale: common.isSale,
    maxLevel: maxLevelOf(badge),
    scarcity: common.scarcity,
    trackedHolders: common.trackedHolders,
    accounts: accountIds.map((accountId): TupleAccount => {
      const held = holdings.get(accountId);
      const steamId = steamId64Of(accountId);
      return held
        ? { steamId, level: held.level, xp: held.xp, completedAt: held.completionTime.toISOString() }
        : { steamId, level: 0, xp: 0 };
    }),
  };
}
