import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyUsageService } from './api-key-usage.service';
import { ApiKeyService } from './api-key.service';
import { ApiKeyUsageEntity } from './entities/api-key-usage.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { UserSessionEntity } from './entities/user-session.entity';
import { SessionService } from './session.service';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { SessionStrategy } from './strategies/session.strategy';

/** Credentials: API keys and user sessions, their hashing, analytics and lookup. The global guard is registered by the API module. */
@Module({
  imports: [PassportModule, TypeOrmModule.forFeature([ApiKeyEntity, ApiKeyUsageEntity, UserSessionEntity])],
  providers: [ApiKeyService, ApiKeyUsageService, SessionService, ApiKeyStrategy, SessionStrategy],
  exports: [ApiKeyService, ApiKeyUsageService, SessionService],
})
export class AuthModule {}
