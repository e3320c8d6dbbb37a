import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { hash } from 'node:crypto';
import { WriteBehind } from '../../common/batching/write-behind';
import { ReplayLog } from '../../common/replay/replay-log';
import { TrendingCounts, TrendingWindow } from '../../common/redis/trending-counter';
import { UpdateProgressService } from '../../account-records/progress/update-progress.service';
import { ViewHit, ViewTrends } from './view-trends';

/** How long a view waits for others to be counted with (ms), and how many wait at most. */
export const VIEW_BATCH_MS = 10;
export const VIEW_BATCH_MAX = 256;

/**
 * Visitors by their account and address: a client views profile after profile as the same pair, and hashing it for
 * each was ~1 % of account.getInfo's API time. Bounded: emptied when full.
 */
const HASHED_VISITORS = new Map<string, string>();
const HASHED_VISITORS_HELD = 4096;

/**
 * Profile views: `account.getViewStats`, the `account-view-tick` event and `account.getTrending`. A viewer is the
 * credential's account with the client's address (from trusted proxies only: ProfileVisitor), hashed; a viewer counts
 * once per profile per bucket (an hour for the 24 h window, a day for 7 d and 30 d: ViewTrends' RECORD_HITS), in
 * the hits as in the distinct viewers, so one key cannot raise a profile's counts or its trending by repeating itself.
 *
 * Every `account.getInfo` is a view, so views are written behind, in batches (WriteBehind): what waits is counted
 * within VIEW_BATCH_MS, by one script for the batch's hits and, when some of the profiles are followed, one for their
 * events, instead of two commands per profile. This process's own reads of the counts flush first, so they
 * include every view it was sent.
 */
@Injectable()
export class AccountViewsService implements BeforeApplicationShutdown {
  private readonly waiting = new WriteBehind<ViewHit>((hits) => this.write(hits), VIEW_BATCH_MS, VIEW_BATCH_MAX);

  constructor(
    private readonly progress: UpdateProgressService,
    private readonly counter: ViewTrends,
  ) {}

  /** The viewer of a credential's account (null: none) from a client address. */
  static visitor(accountId: number | null, ip: string): string {
    const pair = `${accountId ?? ''}|${ip}`;
    let visitor = HASHED_VISITORS.get(pair);
    if (visitor === undefined) {
      visitor = `h:${hash('sha256', pair, 'base64url').slice(0, 22)}`;
      if (HASHED_VISITORS.size >= HASHED_VISITORS_HELD) HASHED_VISITORS.clear();
      HASHED_VISITORS.set(pair, visitor);
    }
    return visitor;
  }

  /** Counts one view of the account; resolves once it is written (within VIEW_BATCH_MS). */
  record(accountId: number, visitor: string): Promise<void> {
    return this.waiting.add({ member: String(accountId), visitor, at: new Date() });
  }

  /**
   * The hits, then one `account-view-tick` per view of a followed profile on the account's channel and replay log.
   * A profile is followed while its replay log exists (an `account.subscribe` stream keeps it: ReplayLog's per-key
   * logs), which the hits' own script reports; a view of a profile nobody follows is announced to no one. Announcing
   * every view (a script's arguments and a PUBLISH per view, which every subscriber of the channel received and
   * dropped) cost the API ~11 µs per account.getInfo (docs/performance-history.md, "Views announced only when
   * followed"). The events follow the hits: a client that reads the counts on a tick finds its view counted. A
   * stream that opens after the hits' script looked finds the view counted before its start, as it should.
   */
  private async write(hits: ViewHit[]): Promise<void> {
    const accounts = hits.map(({ member }) => Number(member));
    const watched = await this.counter.hitMany(
      hits,
      accounts.map((accountId) => this.progress.accountLogKey(accountId)),
    );
    if (!watched.length) return;
    await ReplayLog.appendEach(
      watched.map((at) => ({
        log: this.progress.accountLog(accounts[at]),
        channel: this.progress.channel,
        message: { type: 'view', accountId: accounts[at], totalDelta: 1 },
        entries: [{ event: 'account-view-tick', data: { accountId: accounts[at], totalDelta: 1 } }],
      })),
    );
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.waiting.flush();
  }

  async counts(accountId: number, window: TrendingWindow): Promise<TrendingCounts> {
    await this.waiting.flush();
    return this.counter.counts(String(accountId), window);
  }

  async trending(window: TrendingWindow, limit: number): Promise<({ accountId: number } & TrendingCounts)[]> {
    await this.waiting.flush();
    return (await this.counter.top(window, limit)).map(({ member, ...counts }) => ({ accountId: Number(member), ...counts }));
  }
}
