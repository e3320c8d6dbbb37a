/**
 * # The change feed
 *
 * One durable, ordered log of every committed change that state outside its own rows depends on: the in-process
 * copies each HTTP process keeps (the rank replica, the card replica, the friend graph, the credentials its key cache
 * and streams trust, the planner's card quotes and sets) and, later, any other derived state. Each is a *projection*
 * of PostgreSQL kept in step by it.
 *
 * - **Writers** (`ChangeFeed.record`) insert an entry (`change_feed`: kind, account ids, payload) with the change's
 *   own EntityManager, so the entry commits if and only if the change does; after the commit they `nudge`.
 * - **Readers**: one `ChangeFeedFollower` per process reads the entries after its position, once a second and at
 *   once on a nudge (Redis pub/sub: latency only, it carries no change), and hands them to its projections, which
 *   share that position (one read serves them all; one loading gets the entries read meanwhile once loaded). Order
 *   without skips: positions are (transaction id, id), an entry is final once its transaction id is below the read's
 *   snapshot horizon (feed-cursor.ts). A process starting loads each projection in full.
 * - **Durable consumers** (consumer/durable-feed-consumer.ts): readers that act on each entry once (the watches) and
 *   so cannot reload; their position is stored in PostgreSQL and one worker process consumes at a time. Both kinds
 *   of reader share the read (feed-reader.ts) and the ordering (feed-cursor.ts).
 * - **Retention**: the worker's `ChangeFeedPruner` deletes entries after RETENTION_MS and says so in the feed; a
 *   follower the pruning passed reloads its projections in full.
 *
 * Why PostgreSQL and not a Redis Stream: the entry must commit with the change (a stream entry written after the
 * commit is lost when the writer dies in between, and Redis restarted empty loses the log itself). The cost is one
 * insert per change in a transaction that writes anyway and one small indexed read per process a second.
 */
import { Global, Module } from '@nestjs/common';
import { ChangeFeed } from './change-feed';
import { ChangeFeedFollower } from './change-feed-follower';

@Global()
@Module({ providers: [ChangeFeed, ChangeFeedFollower], exports: [ChangeFeed, ChangeFeedFollower] })
export class ChangeFeedModule {}
