import { Module } from '@nestjs/common';
import { PlatformTotals } from './platform-totals.service';

/** The maintained platform totals: written by account creation and the update worker, read by stats. */
@Module({ providers: [PlatformTotals], exports: [PlatformTotals] })
export class PlatformTotalsModule {}
