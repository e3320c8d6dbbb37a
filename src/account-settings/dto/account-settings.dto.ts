import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCOUNT_PRIVACY, AccountPrivacy, ROLES } from '../../account-records/account.enums';
import { ANALYTICS_OUTCOMES } from '../../auth/entities/api-key-usage.entity';
import { DEVELOPER_APP_ENVIRONMENTS } from '../../auth/entities/api-key.entity';
import { Connection, Image } from '../../account-records/dto/profile-records.dto';

export class ChosenRole {
  @ApiProperty({ enum: ROLES }) role: string;
  @ApiProperty({
    example: 'tier_1',
    description: 'The donor tier: `tier_1`, `tier_2`, `tier_3`, `tier_mythic`, or empty without one (see the README, "Donor tiers").',
  })
  tier: string;
}

export class DeveloperAppAnalyticsOutcome {
  @ApiProperty({ enum: ANALYTICS_OUTCOMES }) outcome: string;
  @ApiProperty({ type: 'integer' }) count: number;
}

export class DeveloperAppAnalyticsLast24Hours {
  @ApiProperty({ type: 'integer', example: 10234 }) totalRequests: number;
  @ApiProperty({ type: 'integer', example: 9876 }) successfulRequests: number;
  @ApiProperty({ type: 'integer', example: 358 }) failedRequests: number;
  @ApiProperty({ type: 'number', example: 96.5, description: 'Percentage of successful requests.' }) successRate: number;
  @ApiProperty({ type: [DeveloperAppAnalyticsOutcome], nullable: true }) outcomeBreakdown: DeveloperAppAnalyticsOutcome[] | null;
}

export class DeveloperAppAnalyticsPoint {
  @ApiProperty({ format: 'date-time' }) time: string;
  @ApiProperty() outcome: string;
  @ApiProperty({ type: 'integer', example: 423 }) count: number;
}

export class DeveloperAppAnalyticsTimeSeries {
  @ApiProperty({ type: [DeveloperAppAnalyticsPoint], nullable: true }) hourly: DeveloperAppAnalyticsPoint[] | null;
}

export class DeveloperAppAnalytics {
  @ApiProperty({ type: DeveloperAppAnalyticsLast24Hours }) last24Hours: DeveloperAppAnalyticsLast24Hours;
  @ApiProperty({ type: DeveloperAppAnalyticsTimeSeries }) timeSeries: DeveloperAppAnalyticsTimeSeries;
}

export class DeveloperApp {
  @ApiProperty({ example: 'key_123456', description: 'Same as keyId.' }) id: string;
  @ApiProperty({ example: 'key_123456' }) keyId: string;
  @ApiProperty({ example: 'My App' }) name: string;
  @ApiProperty({ example: 'My App Description' }) description: string;
  @ApiProperty({ enum: DEVELOPER_APP_ENVIRONMENTS }) environment: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    nullable: true,
    deprecated: true,
    description: 'Masked: the key prefix and its last four characters. The secret itself is shown only once, at creation.',
  })
  apiKey: string | null;
  @ApiPropertyOptional({ type: DeveloperAppAnalytics }) analytics?: DeveloperAppAnalytics;
}

export class Session {
  @ApiProperty({ example: 'ses_0123456789abcdef' }) sessionId: string;
  @ApiProperty({ example: '127.0.0.1' }) ip: string;
  @ApiProperty() userAgent: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ format: 'date-time' }) lastSeen: string;
}

export class V1VanityAnalytics {
  @ApiProperty({ type: 'integer' }) clicks: number;
}

/** The calling account's settings (`account.getSettings`). */
export class V1AccountGetSettingsBody {
  @ApiProperty({
    type: ChosenRole,
    nullable: true,
    description: 'The role the user chose, else the highest-rated role the account holds; null without any.',
  })
  chosenRole: ChosenRole | null;
  @ApiProperty({ type: [Connection], nullable: true }) connections: Connection[] | null;
  @ApiProperty({ type: [DeveloperApp], nullable: true }) developerApps: DeveloperApp[] | null;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' }) emailVerifiedAt: string | null;
  @ApiProperty({ description: 'Hidden from the leaderboards.' }) hidden: boolean;
  @ApiProperty({ type: [Image], nullable: true, deprecated: true }) images: Image[] | null;
  @ApiProperty({ example: 'en' }) language: string;
  @ApiProperty({ enum: ACCOUNT_PRIVACY }) privacy: AccountPrivacy;
  @ApiProperty({ type: [Session], nullable: true }) sessions: Session[] | null;
  @ApiProperty({ description: 'Marketing e-mail opt-in.' }) subscribed: boolean;
  @ApiProperty({ example: 'flo' }) vanity: string;
  @ApiProperty({ type: V1VanityAnalytics, nullable: true }) vanityAnalytics: V1VanityAnalytics | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) countryOverrideCode?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) countryOverrideName?: string | null;
  @ApiPropertyOptional({ type: DeveloperAppAnalytics, description: 'Totals over all of the account’s API keys.' })
  analytics?: DeveloperAppAnalytics;
}
