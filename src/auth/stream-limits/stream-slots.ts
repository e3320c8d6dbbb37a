/**
 * # Event-stream slots
 *
 * An event stream holds a connection, a subscription and a heartbeat timer for as long as its client keeps it open,
 * so how many one caller may hold is bounded (issue 60: any number could be opened, 20 anonymous `stats.subscribe`
 * were all 200). Counted in this process, when the guard admits a stream, and given back when its response closes:
 * - per account, whichever of its keys or sessions opened them: STREAMS_PER_ACCOUNT, then 429;
 * - per client address for anonymous streams (the /64 for IPv6, see client-address.ts): STREAMS_PER_ADDRESS, then 429;
 * - per process, every stream together: STREAMS_MAX_OPEN, then 503 (the server's limit, not the caller's).
 * Each refusal is a problem document with Retry-After. The counts are per API process (with API_PROCESSES=N a caller
 * may hold N times as many): a shared count would need every process to give back the slots of a process that died.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Principal } from '../../common/auth/principal';
import { serviceUnavailable, tooManyRequests } from '../../common/problem/problem.exception';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** What a refused stream is told to wait: streams end when their clients go, which is seldom a matter of seconds. */
const RETRY_AFTER_SECONDS = 30;

@Injectable()
export class StreamSlots {
  private readonly held = new Map<string, number>();
  private open = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Takes a slot for a stream of `principal` (null: anonymous, from `address`) until `response` closes, or throws. */
  take(principal: Principal | null, address: string, response: Response): void {
    const { perAccount, perAddress, maxOpen } = this.config.streams;
    const [owner, limit] = principal ? [`account:${principal.accountId}`, perAccount] : [`address:${address}`, perAddress];
    if (this.open >= maxOpen)
      throw serviceUnavailable('The server holds as many event streams as it can; retry later.', RETRY_AFTER_SECONDS);
    const count = this.held.get(owner) ?? 0;
    if (count >= limit) {
      const whose = principal ? 'This account holds' : 'This address holds';
      throw tooManyRequests(`${whose} ${limit} open event streams, the most allowed; close one, or retry later.`, RETRY_AFTER_SECONDS);
    }
    this.held.set(owner, count + 1);
    this.open++;
    response.once('close', () => {
      this.open--;
      const left = (this.held.get(owner) ?? 1) - 1;
      if (left > 0) this.held.set(owner, left);
      else this.held.delete(owner);
    });
  }

  /** Streams open in this process, for tests and diagnostics. */
  state(): { open: number } {
    return { open: this.open };
  }
}
