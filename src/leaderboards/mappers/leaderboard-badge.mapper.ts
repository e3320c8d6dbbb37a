import { commonBadgeFields, HeldBadge } from '../../badges/badge-catalog.service';
import { V1LeaderboardBadge } from '../dto/leaderboard-badges.dto';

/** A badge as listed for badge leaderboards: its starting level and xp, and holder statistics (assigned, see toAppBadge). */
export function toLeaderboardBadge(badge: HeldBadge): V1LeaderboardBadge {
  return Object.assign(commonBadgeFields(badge), { image: badge.image, level: badge.baseLevel, xp: badge.baseXp });
}
