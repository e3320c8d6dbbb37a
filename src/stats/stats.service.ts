import { Injectable } from '@nestjs/common';
import { V1Stats } from './dto/v1-stats.dto';
import { PlatformTotals } from './totals/platform-totals.service';

/** Platform-wide totals: read from the maintained totals (a handful of rows), never summed over the accounts. */
@Injectable()
export class StatsService {
  constructor(private readonly totals: PlatformTotals) {}

  getStats(): Promise<V1Stats> {
    return this.totals.read();
  }
}
