import { Module } from '@nestjs/common';
import { AccountRecordsModule } from '../account-records/account-records.module';
import { LeaderboardAccountsModule } from '../account-records/cards/leaderboard-accounts.module';
import { AuthModule } from '../auth/auth.module';
import { ConnectionsModule } from '../connections/connections.module';
import { AdminAccountService } from './admin-account.service';
import { AdminController } from './admin.controller';
import { AuditLog } from './audit-log';
import { StaffChanges } from './staff-changes.service';
import { StaffController } from './staff.controller';
import { StaffDirectory } from './staff-directory.service';

/**
 * # Staff
 *
 * The operations of the service's staff (`admin.*`, `staff.listStaff`) and the audit log of their changes. Who is
 * staff: an account holding `staff`, `owner` or `developer` (common/auth/require-role.decorator.ts, checked by the
 * global RoleGuard on each request). What they change goes through StaffChanges, which the operator's CLI uses too
 * (src/cli/commands), so both are audited alike (audit-log.ts).
 */
@Module({
  imports: [AccountRecordsModule, LeaderboardAccountsModule, AuthModule, ConnectionsModule],
  controllers: [AdminController, StaffController],
  providers: [AuditLog, StaffChanges, AdminAccountService, StaffDirectory],
  exports: [AuditLog, StaffChanges],
})
export class StaffModule {}
