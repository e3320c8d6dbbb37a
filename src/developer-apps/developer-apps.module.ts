/**
 * # Self-service developer apps
 *
 * `account.createDeveloperApp`, `updateDeveloperApp` and `deleteDeveloperApp`, for a signed-in user (session only):
 * an app is one API key row (src/auth/entities/api-key.entity.ts), listed with its analytics by `account.getSettings`.
 * A per-account allowance (409 past it) and a per-account change limit (429) keep one account from minting keys
 * without end; deleting revokes the key on every API process before it answers (ApiKeyService, ApiKeyCache).
 */
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DeveloperAppsController } from './developer-apps.controller';
import { DeveloperAppsService } from './developer-apps.service';

@Module({
  imports: [AuthModule],
  controllers: [DeveloperAppsController],
  providers: [DeveloperAppsService],
})
export class DeveloperAppsModule {}
