import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { AccountSettingsController } from './account-settings.controller';
import { AccountAdminService } from './account-admin.service';
import { AccountSettingsService } from './account-settings.service';
import { AccountRoleEntity } from './entities/account-role.entity';
import { AccountSettingsEntity } from './entities/account-settings.entity';
import { AccountEntity } from './entities/account.entity';

@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([AccountEntity, AccountSettingsEntity, AccountRoleEntity])],
  controllers: [AccountSettingsController],
  providers: [AccountSettingsService, AccountAdminService],
  exports: [TypeOrmModule, AccountAdminService],
})
export class AccountsModule {}
