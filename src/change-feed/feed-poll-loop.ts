import Redis from 'ioredis';
import { Subscription } from 'rxjs';
import { RedisChannel } from '../common/redis/redis-channel';
import { AppConfig } from '../config/app-config';
import { Nudge, nudgeChannel } from './change-entry';

/** The truth's pace: one indexed read this often, whether nudged or not. */
export const POLL_MS = 1_000;

/**
 * The pace both kinds of reader of the feed keep (ChangeFeedFollower, DurableFeedConsumer): a round every POLL_MS and
 * on each nudge (latency only: the poll is the truth), one round at a time, and one asked for meanwhile run right
 * after the one under way (its entry may have committed after that one's read).
 */
export class FeedPollLoop {
  private readonly nudges: RedisChannel<Nudge>;
  private listening: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private active = false;

  /**
   * `round` reads and hands on what it read; true: it did not read all there was, poll again at once. `nudged` hears
   * each nudge instead of the loop (it polls).
   */
  constructor(
    redis: Redis,
    config: Pick<AppConfig, 'redisPrefix'>,
    private readonly round: () => Promise<boolean>,
    private readonly nudged?: (nudge: Nudge) => void,
  ) {
    this.nudges = new RedisChannel(redis, nudgeChannel(config));
  }

  get running(): boolean {
    return this.active;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.timer = setInterval(() => void this.poll(), POLL_MS).unref();
    this.listening = this.nudges.listen().subscribe((nudge) => (this.nudged ? this.nudged(nudge) : void this.poll()));
    void this.poll();
  }

  /** Stops polling and listening, once the round under way has ended. */
  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearInterval(this.timer);
    this.listening?.unsubscribe();
    await this.nudges.close();
    await this.polling;
  }

  /** A round now, or right after the one under way; resolves when that one ends. */
  poll(): Promise<void> {
    if (!this.active) return Promise.resolve();
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = this.round()
      .then((more) => void (this.pollAgain ||= more))
      .finally(() => {
        const again = this.pollAgain;
        [this.polling, this.pollAgain] = [null, false];
        if (again) void this.poll();
      });
    return this.polling;
  }
}
