import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { TrendingCounts, TrendingWindow } from '../../common/redis/trending-counter';
import { UpdateProgressService } from '../progress/update-progress.service';
import { ViewTrends } from './view-trends';

/**
 * Profile views: `account.getViewStats`, the `account-view-tick` event and `account.getTrending`. A viewer is
 * the client's `X-Visitor-Id`, else a hash of its address and user agent.
 */
@Injectable()
export class AccountViewsService {
  constructor(
    private readonly progress: UpdateProgressService,
    private readonly counter: ViewTrends,
  ) {}

  static visitor(visitorId: string | undefined, ip: string, userAgent: string | undefined): string {
    if (visitorId && /^[A-Za-z0-9._:-]{1,64}$/.test(visitorId)) return `v:${visitorId}`;
    return `h:${createHash('sha256')
      .update(`${ip}|${userAgent ?? ''}`)
      .digest('base64url')
      .slice(0, 22)}`;
  }

  async record(accountId: number, visitor: string): Promise<void> {
    // The view event is issued right after the hit, in the same write (see ViewTrends.hit). It once went in a
    // second round trip because a stream following the account sometimes missed the tick; that was a stream opened
    // before its start position was read (fixed in openResumableStream), not the shared write.
    const log = this.progress.accountLog(accountId);
    await this.counter.hit(String(accountId), visitor, new Date(), () =>
      log.append(this.progress.channel, { type: 'view', accountId, totalDelta: 1 }, [
        { event: 'account-view-tick', data: { accountId, totalDelta: 1 } },
      ]),
    );
  }

  counts(accountId: number, window: TrendingWindow): Promise<TrendingCounts> {
    return this.counter.counts(String(accountId), window);
  }

  async trending(window: TrendingWindow, limit: number): Promise<({ accountId: number } & TrendingCounts)[]> {
    return (await this.counter.top(window, limit)).map(({ member, ...counts }) => ({ accountId: Number(member), ...counts }));
  }
}
