import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyUsageService } from './api-key-usage.service';
import { ApiKeyService } from './api-key.service';
import { ApiKeyUsageEntity } from './entities/api-key-usage.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { UserSessionEntity } from './entities/user-session.entity';
import { RotatedRefreshTokenEntity } from './entities/rotated-refresh-token.entity';
import { SessionLastSeen } from './session-last-seen';
import { RateLimiter } from './rate-limit/rate-limiter.service';
import { SessionService } from './session.service';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { SessionStrategy } from './strategies/session.strategy';
import { ActionThrottle } from './throttle/action-throttle.service';
import { CredentialRevocations } from './revocations/credential-revocations.service';
import { CredentialStreams } from './revocations/credential-streams';
import { ApiKeyAuthGuard, SessionAuthGuard } from './guards/strategy.guards';
import { BearerLargeBodyCredentials } from './large-body-credentials';
import { StreamSlots } from './stream-limits/stream-slots';

/**
 * Credentials: API keys and user sessions, their hashing, analytics and lookup, their passport strategies and
 * the rate limiter, and a guard per strategy. The global guard that uses them is registered by the API module.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity, ApiKeyUsageEntity, UserSessionEntity, RotatedRefreshTokenEntity])],
  providers: [
    ApiKeyService,
    ApiKeyUsageService,
    SessionService,
    SessionLastSeen,
    RateLimiter,
    ApiKeyStrategy,
    SessionStrategy,
    ActionThrottle,
    CredentialRevocations,
    CredentialStreams,
    ApiKeyAuthGuard,
    SessionAuthGuard,
    BearerLargeBodyCredentials,
    StreamSlots,
  ],
  exports: [
    BearerLargeBodyCredentials,
    StreamSlots,
    ApiKeyService,
    ApiKeyUsageService,
    SessionService,
    RateLimiter,
    ActionThrottle,
    ApiKeyAuthGuard,
    SessionAuthGuard,
    CredentialStreams,
  ],
})
export class AuthModule {}
