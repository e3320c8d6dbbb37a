/**
 * # Durable feed consumers
 *
 * The change feed's readers that must not miss an entry even while no process runs them (watches today; the webhooks
 * could move here next). Unlike a ChangeFeedFollower, which keeps its position in memory and reloads its projection
 * in full after a restart, a consumer has no state to reload from: it acts on each entry once (fires a watch), so its
 * position (xid, id) is kept in PostgreSQL (`change_feed_consumers`) and survives every process and Redis.
 *
 * - **A round** (once a second, and at once on a change-feed nudge: latency only, the poll is the truth): in one
 *   transaction holding `pg_try_advisory_xact_lock` on the consumer's name, read the stored position, read the
 *   entries after it (FeedReader, the followers' read), order them and judge them final or early (FeedCursor, the
 *   followers' logic), hand them to the handler, then store the new position and commit. A round that finds the
 *   lock held ends at once: one worker process consumes at a time, and another takes over at its next poll when the
 *   first stops. The lock is transaction-scoped, so a process that dies mid-round holds nothing.
 * - **At least once**: the position moves only after the handler returned; a handler that throws has the same
 *   entries again at the next round, and so does the next process after a crash between handling and commit, or an
 *   entry handled early (above the horizon) by a process that then stopped. Handlers must be idempotent.
 * - **Pruned past** (the worker was away longer than the feed's retention, change-feed-pruner.ts): the consumer goes
 *   on with the entries still there and logs a warning; the facts of the entries deleted are lost to it.
 * - **A new consumer** starts at the horizon of its first round: it does not replay the feed's history.
 */
import Redis from 'ioredis';
import { Subscription } from 'rxjs';
import { DataSource, QueryRunner } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { RedisChannel } from '../../common/redis/redis-channel';
import { AppConfig } from '../../config/app-config';
import { FeedEntry, Nudge, nudgeChannel } from '../change-entry';
import { POLL_MS } from '../change-feed-follower';
import { FeedCursor, FeedPosition } from '../feed-cursor';
import { FeedReader } from '../feed-reader';

/** Key class of the consumers' advisory locks (`pg_try_advisory_xact_lock(class, hashtext(name))`). */
const CONSUMER_LOCKS = 0x43464401;

/** What a consumer does with the entries. */
export interface FeedHandler {
  /** The consumer's row in `change_feed_consumers` and its lock: one per purpose, never shared. */
  readonly name: string;
  /** Handles entries in feed order (any kind: pick yours). May see an entry again; throws to have them again later. */
  handle(entries: readonly FeedEntry[]): Promise<void>;
}

export class DurableFeedConsumer {
  private readonly logger = new JsonLogger('FeedConsumer');
  private readonly reader: FeedReader;
  private readonly nudges: RedisChannel<Nudge>;
  private listening: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private failing = false;
  /** The cursor this process last stored, with the entries it handled early; dropped when another process moved on. */
  private cursor: FeedCursor | null = null;
  /** The newest pruning this consumer was warned of, so one pruning is logged once. */
  private warnedPruned: number | null = null;

  constructor(
    private readonly dataSource: DataSource,
    redis: Redis,
    config: AppConfig,
    private readonly handler: FeedHandler,
  ) {
    this.reader = new FeedReader(dataSource);
    this.nudges = new RedisChannel(redis, nudgeChannel(config));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.timer = setInterval(() => void this.poll(), POLL_MS).unref();
    this.listening = this.nudges.listen().subscribe(() => void this.poll());
    void this.poll();
  }

  /** Stops after the round under way; the position stored is where the next start (here or elsewhere) goes on. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.listening?.unsubscribe();
    await this.nudges.close();
    await this.polling;
  }

  /** One round at a time; one asked for meanwhile runs right after (its entry may have committed after the read). */
  poll(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = this.round().finally(() => {
      const again = this.pollAgain && this.running;
      [this.polling, this.pollAgain] = [null, false];
      if (again) void this.poll();
    });
    return this.polling;
  }

  private async round(): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      await runner.startTransaction();
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked', [
        CONSUMER_LOCKS,
        this.handler.name,
      ]);
      if (locked) await this.consume(runner);
      await runner.commitTransaction();
      if (this.failing) this.logger.log({ msg: 'the feed consumer handles entries again', consumer: this.handler.name });
      this.failing = false;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      if (!this.failing) {
        this.logger.warn({ msg: 'the feed consumer failed; trying again', consumer: this.handler.name, error: String(error) });
      }
      this.failing = true;
    } finally {
      await runner.release();
    }
  }

  /** Under the lock: the entries after the stored position handled, and the position moved past them. */
  private async consume(runner: QueryRunner): Promise<void> {
    const stored = await this.storedPosition(runner);
    const cursor = this.cursor && samePosition(this.cursor.position, stored) ? this.cursor : new FeedCursor(stored);
    const read = await this.reader.read(cursor.position);
    if (!cursor.reaches(read.pruned) && this.warnedPruned !== read.pruned) {
      this.warnedPruned = read.pruned;
      this.logger.warn({
        msg: 'the change feed was pruned past this consumer: the entries deleted are lost to it',
        consumer: this.handler.name,
        position: cursor.position,
        prunedThrough: read.pruned,
      });
    }
    // Past a pruning, the entries still there are handled as if none had gone (the lost ones cannot be).
    const step = cursor.step({ ...read, pruned: null });
    if (step.gone) return;
    if (step.apply.length) await this.handler.handle(step.apply);
    if (!samePosition(step.next.position, stored)) {
      await runner.query('UPDATE change_feed_consumers SET xid = $2, id = $3, updated_at = now() WHERE name = $1', [
        this.handler.name,
        step.next.position.xid,
        step.next.position.id,
      ]);
    }
    this.cursor = step.next;
    this.pollAgain ||= !step.complete;
  }

  /** The stored position; a consumer's first round stores the horizon of now (it starts from the present). */
  private async storedPosition(runner: QueryRunner): Promise<FeedPosition> {
    const [row]: { xid: string; id: string }[] = await runner.query('SELECT xid, id FROM change_feed_consumers WHERE name = $1', [
      this.handler.name,
    ]);
    if (row) return { xid: Number(row.xid), id: Number(row.id) };
    const start = FeedCursor.at(await this.reader.horizon()).position;
    await runner.query('INSERT INTO change_feed_consumers (name, xid, id) VALUES ($1, $2, $3)', [this.handler.name, start.xid, start.id]);
    this.logger.log({ msg: 'a feed consumer starts at the present', consumer: this.handler.name, position: start });
    return start;
  }
}

const samePosition = (a: FeedPosition, b: FeedPosition) => a.xid === b.xid && a.id === b.id;
