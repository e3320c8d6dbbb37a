import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MaintenanceEventEntity } from './entities/maintenance-event.entity';
import { MaintenanceService } from './maintenance.service';
import { SiteController } from './site.controller';

@Module({
  imports: [TypeOrmModule.forFeature([MaintenanceEventEntity])],
  controllers: [SiteController],
  providers: [MaintenanceService],
  exports: [MaintenanceService],
})
export class SiteModule {}
