import { Module } from '@nestjs/common';
import { AppOwnerCounts } from './app-owner-counts.service';

/** The maintained owner counts of apps: written by the update worker, read by app.listOwners. */
@Module({ providers: [AppOwnerCounts], exports: [AppOwnerCounts] })
export class AppOwnerCountsModule {}
