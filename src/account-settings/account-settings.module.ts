import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { AccountSettingsEntity } from '../account-records/entities/account-settings.entity';
import { AccountEntity } from '../account-records/entities/account.entity';
import { ImagesModule } from '../images/images.module';
import { ConnectionsModule } from '../connections/connections.module';
import { AccountSettingsController } from './account-settings.controller';
import { AccountSettingsService } from './account-settings.service';

/** What a signed-in user reads and changes of their own account: settings. Sessions are sessions/'s. */
@Module({
  imports: [AuthModule, ImagesModule, ConnectionsModule, TypeOrmModule.forFeature([AccountEntity, AccountSettingsEntity])],
  controllers: [AccountSettingsController],
  providers: [AccountSettingsService],
})
export class AccountSettingsModule {}
