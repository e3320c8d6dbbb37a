import { Module } from '@nestjs/common';
import { SiteModule } from '../site/site.module';
import { StaffModule } from '../staff/staff.module';
import { MaintenanceController } from './maintenance.controller';
import { MaintenanceAdmin } from './maintenance-admin.service';

/** Maintenance events as operations: the public list of those in force, and staff's audited changes. */
@Module({
  imports: [SiteModule, StaffModule],
  controllers: [MaintenanceController],
  providers: [MaintenanceAdmin],
  exports: [MaintenanceAdmin],
})
export class MaintenanceModule {}
