import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { AccountSettingsEntity } from '../account-records/entities/account-settings.entity';
import { AccountEntity } from '../account-records/entities/account.entity';
import { ImagesModule } from '../images/images.module';
import { ConnectionsModule } from '../connections/connections.module';
import { AccountSettingsController } from './account-settings.controller';
import { AccountSettingsService } from './account-settings.service';
import { SettingsUpdater } from './settings-updater.service';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { BoardChangesModule } from '../leaderboards/changes/board-changes.module';
import { PlatformModule } from '../platform/platform.module';
import { RanksModule } from '../ranks/ranks.module';

/** What a signed-in user reads and changes of their own account: settings, vanity. Sessions are sessions/'s. */
@Module({
  imports: [
    AuthModule,
    ImagesModule,
    ConnectionsModule,
    AccountRecordsModule,
    PlatformModule,
    RanksModule,
    BoardChangesModule,
    TypeOrmModule.forFeature([AccountEntity, AccountSettingsEntity]),
  ],
  controllers: [AccountSettingsController],
  providers: [AccountSettingsService, SettingsUpdater],
})
export class AccountSettingsModule {}
