import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Principal } from '../common/auth/principal';
import { serviceUnavailable, tooManyRequests } from '../common/problem/problem.exception';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ActionThrottle, ThrottleRule } from '../auth/throttle/action-throttle.service';

/** What a refused export is told to wait when the cause is one running: an export of a whole board takes a while. */
const BUSY_RETRY_SECONDS = 10;

/**
 * The bounds of the exports, checked before anything is read:
 * - starts per account per minute (`EXPORTS_PER_MINUTE`), a sliding window in Redis shared by every API process
 *   (ActionThrottle), then 429 with Retry-After;
 * - exports running at once per account (`EXPORTS_PER_ACCOUNT`), then 429, and per API process, every caller
 *   together (`EXPORTS_MAX_OPEN`), then 503 (the server's bound, not the caller's): each holds a database connection
 *   per batch and a socket for as long as its client reads, so their number is what bounds the exports' cost. Counted in
 *   this process (as the event streams are, src/auth/stream-limits) and given back when the response closes.
 */
@Injectable()
export class ExportLimits {
  private readonly running = new Map<number, number>();
  private open = 0;
  private readonly endings = { completed: 0, aborted: 0 };
  private readonly rule: ThrottleRule;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly throttle: ActionThrottle,
  ) {
    const { perMinute } = config.exports;
    this.rule = {
      action: 'export',
      limit: perMinute,
      windowSeconds: 60,
      detail: `An account may start ${perMinute} exports a minute; retry after the time Retry-After gives.`,
    };
  }

  /** Admits one export of `principal` until `res` closes, or throws the problem (429 or 503) that refuses it. */
  async admit(principal: Principal, res: Response): Promise<void> {
    const owner = principal.accountId;
    // The running counts first: a refused export should not spend one of the minute's starts.
    this.checkRunning(owner);
    await this.throttle.take(this.rule, owner);
    // Checked again after the await: another request of the same owner may have been admitted meanwhile.
    this.checkRunning(owner);
    this.running.set(owner, (this.running.get(owner) ?? 0) + 1);
    this.open++;
    res.once('close', () => {
      this.open--;
      const left = (this.running.get(owner) ?? 1) - 1;
      if (left > 0) this.running.set(owner, left);
      else this.running.delete(owner);
    });
  }

  private checkRunning(owner: number): void {
    const { perAccount, maxOpen } = this.config.exports;
    if (this.open >= maxOpen) throw serviceUnavailable('The server runs as many exports as it can; retry shortly.', BUSY_RETRY_SECONDS);
    if ((this.running.get(owner) ?? 0) >= perAccount)
      throw tooManyRequests(
        `This account runs ${perAccount} export(s) already, the most allowed at once; retry once it ends.`,
        BUSY_RETRY_SECONDS,
      );
  }

  /** Counts how an export ended: written to its end, or stopped because its client left. */
  ended(aborted: boolean): void {
    this.endings[aborted ? 'aborted' : 'completed']++;
  }

  /** Exports running in this process and how the ended ones ended, for tests and diagnostics. */
  state(): { open: number; completed: number; aborted: number } {
    return { open: this.open, ...this.endings };
  }
}
