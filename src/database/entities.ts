import { ChangeFeedEntity } from '../change-feed/change-feed.entity';
import { FeedConsumerPositionEntity } from '../change-feed/consumer/feed-consumer-position.entity';
import { AccountWatchEntity } from '../watches/entities/account-watch.entity';
import { ActivityEventEntity } from '../activity/entities/activity-event.entity';
import { DonationEntity } from '../donations/entities/donation.entity';
import { MaintenanceEventEntity } from '../site/entities/maintenance-event.entity';
import { AccountAppEntity } from '../account-records/entities/account-app.entity';
import { AccountBadgeEntity } from '../account-records/entities/account-badge.entity';
import { AccountFriendEntity } from '../account-records/entities/account-friend.entity';
import { AccountGroupEntity } from '../account-records/entities/account-group.entity';
import { AccountUpdateEntity } from '../account-records/entities/account-update.entity';
import { AppEntity } from '../apps/entities/app.entity';
import { AppOwnerCountEntity } from '../apps/entities/app-owner-count.entity';
import { AppCardClassEntity } from '../badges/entities/app-card-class.entity';
import { AppCardCountEntity } from '../badges/entities/app-card-count.entity';
import { BadgeHolderStatsEntity } from '../badges/entities/badge-holder-stats.entity';
import { BadgeTagEditEntity } from '../badges/entities/badge-tag-edit.entity';
import { BadgeTagReviewEntity } from '../badges/entities/badge-tag-review.entity';
import { BadgeTagEntity } from '../badges/entities/badge-tag.entity';
import { BadgeEntity } from '../badges/entities/badge.entity';
import { TagEntity } from '../badges/entities/tag.entity';
import { InventoryItemEntity } from '../items/entities/inventory-item.entity';
import { ItemClassOwnersEntity } from '../items/entities/item-class-owners.entity';
import { AccountHistoryEntity } from '../account-records/entities/account-history.entity';
import { AccountResourceEntity } from '../account-records/entities/account-resource.entity';
import { AuditLogEntity } from '../staff/entities/audit-log.entity';
import { AccountRoleEntity } from '../account-records/entities/account-role.entity';
import { AccountSettingsEntity } from '../account-records/entities/account-settings.entity';
import { AccountEntity } from '../account-records/entities/account.entity';
import { ApiKeyUsageEntity } from '../auth/entities/api-key-usage.entity';
import { ApiKeyEntity } from '../auth/entities/api-key.entity';
import { UserSessionEntity } from '../auth/entities/user-session.entity';
import { RotatedRefreshTokenEntity } from '../auth/entities/rotated-refresh-token.entity';
import { PlatformTotalsEntity } from '../stats/entities/platform-totals.entity';
import { BoardValueLeaderEntity } from '../leaderboards/entities/board-value-leader.entity';
import { AccountBestRankEntity } from '../ranks/entities/account-best-rank.entity';
import { AccountRankHistoryEntity } from '../ranks/entities/account-rank-history.entity';
import { AccountImageEntity } from '../images/entities/account-image.entity';
import { AccountConnectionEntity } from '../connections/entities/account-connection.entity';
import { GroupEntity } from '../groups/entities/group.entity';
import { AppMarketPriceEntity } from '../pricing/entities/app-market-price.entity';
import { CardMarketPriceEntity } from '../pricing/entities/card-market-price.entity';
import { AppPricingEntity } from '../pricing/entities/app-pricing.entity';
import { WebhookDeliveryEntity } from '../webhooks/entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../webhooks/entities/webhook-endpoint.entity';
import { WebhookFollowEntity } from '../webhooks/entities/webhook-follow.entity';
import { EmailVerificationCodeEntity } from '../email/entities/email-verification-code.entity';
import { AccountKvEntryEntity } from '../preferences/entities/account-kv-entry.entity';
import { AccountBadgeBookmarkEntity } from '../preferences/entities/account-badge-bookmark.entity';
import { ProfileViewBucketEntity } from '../accounts/views/entities/profile-view-bucket.entity';
import { AnalyticsDailyQuantilesEntity } from '../analytics/trends/entities/analytics-daily-quantiles.entity';

/** Every entity of the service; the data source, the migration generator and the drift check all use this list. */
export const ENTITIES = [
  AccountEntity,
  AccountSettingsEntity,
  AccountRoleEntity,
  AccountResourceEntity,
  AccountHistoryEntity,
  AuditLogEntity,
  ApiKeyEntity,
  ApiKeyUsageEntity,
  UserSessionEntity,
  RotatedRefreshTokenEntity,
  AccountBadgeEntity,
  AccountAppEntity,
  AccountFriendEntity,
  AccountGroupEntity,
  AccountUpdateEntity,
  AppEntity,
  BadgeEntity,
  InventoryItemEntity,
  ActivityEventEntity,
  MaintenanceEventEntity,
  DonationEntity,
  TagEntity,
  BadgeTagEntity,
  BadgeTagEditEntity,
  BadgeTagReviewEntity,
  PlatformTotalsEntity,
  BadgeHolderStatsEntity,
  AppCardClassEntity,
  AppCardCountEntity,
  BoardValueLeaderEntity,
  AccountRankHistoryEntity,
  AccountBestRankEntity,
  AppOwnerCountEntity,
  ItemClassOwnersEntity,
  AccountImageEntity,
  AccountConnectionEntity,
  GroupEntity,
  AppPricingEntity,
  AppMarketPriceEntity,
  CardMarketPriceEntity,
  WebhookEndpointEntity,
  WebhookFollowEntity,
  WebhookDeliveryEntity,
  EmailVerificationCodeEntity,
  AccountKvEntryEntity,
  AccountBadgeBookmarkEntity,
  ProfileViewBucketEntity,
  ChangeFeedEntity,
  FeedConsumerPositionEntity,
  AnalyticsDailyQuantilesEntity,
  AccountWatchEntity,
];
