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
import { DataSource, QueryRunner } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { AppConfig } from '../../config/app-config';
import { FeedEntry } from '../change-entry';
import { FeedCursor, FeedPosition } from '../feed-cursor';
import { FeedPollLoop } from '../feed-poll-loop';
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
  private readonly loop: FeedPollLoop;
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
    this.loop = new FeedPollLoop(redis, config, () => this.round());
  }

  start(): void {
    this.loop.start();
  }

  /** Stops after the round under way; the position stored is where the next start (here or elsewhere) goes on. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** A round now, or right after the one under way (FeedPollLoop: one at a time). */
  poll(): Promise<void> {
    return this.loop.poll();
  }

  /** One round; true when it did not hand on every entry there was. */
  private async round(): Promise<boolean> {
    const runner = this.dataSource.createQueryRunner();
    let more = false;
    try {
      await runner.connect();
      await runner.startTransaction();
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked', [
        CONSUMER_LOCKS,
        this.handler.name,
      ]);
      if (locked) more = await this.consume(runner);
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
    return more;
  }

  /**
   * Under the lock: the entries after the stored position handled, and the position moved past them; true when the
   * read did not reach every entry there was.
   */
  private async consume(runner: QueryRunner): Promise<boolean> {
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
    if (step.gone) return false;
    if (step.apply.length) await this.handler.handle(step.apply);
    if (!samePosition(step.next.position, stored)) {
      await runner.query('UPDATE change_feed_consumers SET xid = $2, id = $3, updated_at = now() WHERE name = $1', [
        this.handler.name,
        step.next.position.xid,
        step.next.position.id,
      ]);
    }
    this.cursor = step.next;
    return !step.complete;
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
