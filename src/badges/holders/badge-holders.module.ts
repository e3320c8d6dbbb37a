import { Module } from '@nestjs/common';
import { AppCardClasses } from './app-card-classes.service';
import { BadgeHolderStats } from './badge-holder-stats.service';

/** The maintained holder statistics of badges and card classes of apps: written by the update worker. */
@Module({ providers: [BadgeHolderStats, AppCardClasses], exports: [BadgeHolderStats, AppCardClasses] })
export class BadgeHoldersModule {}
