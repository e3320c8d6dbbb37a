import { Module } from '@nestjs/common';
import { TrendSnapshotter } from './trend-snapshotter.service';

/** The worker's part of the analytics: the daily trend snapshot (trend-snapshotter.service.ts). */
@Module({ providers: [TrendSnapshotter], exports: [TrendSnapshotter] })
export class AnalyticsTrendsModule {}
