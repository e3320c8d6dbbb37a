import { Module } from '@nestjs/common';
import { ViewRollup } from './view-rollup.service';
import { ViewTrends } from './view-trends';

/** The worker's copy of the profile view counts in PostgreSQL, and their way back into Redis (view-rollup.service.ts). */
@Module({ providers: [ViewTrends, ViewRollup] })
export class ViewRollupModule {}
