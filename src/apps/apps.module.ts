import { Module } from '@nestjs/common';
import { BadgesModule } from '../badges/badges.module';
import { AppBadgesService } from './app-badges.service';
import { AppsController } from './apps.controller';

@Module({ imports: [BadgesModule], controllers: [AppsController], providers: [AppBadgesService] })
export class AppsModule {}
