import Redis from 'ioredis';

/**
 * Runs a pipeline or MULTI and throws its first command's error: ioredis resolves `exec()` with an error per
 * command, so a failed `RENAME` or `ZADD` (out of memory, a missing key) would otherwise pass unnoticed.
 */
export async function execOrThrow(batch: ReturnType<Redis['pipeline']>): Promise<void> {
  const results = await batch.exec();
  const failed = results?.find(([error]) => error);
  if (failed) throw failed[0];
}

/**
 * Sends batches one at a time, each once the one before has been answered, without waiting for its own answer: the
 * caller renders the next batch while Redis runs the last (awaiting each in turn leaves one of the two idle). `send`
 * waits for the previous batch, so at most one is in flight and a failure surfaces at the next `send` or `drain`.
 */
export class OneBatchInFlight {
  private inFlight: Promise<unknown> = Promise.resolve();

  async send(start: () => Promise<unknown>): Promise<void> {
    await this.inFlight;
    this.inFlight = start();
    this.inFlight.catch(() => undefined); // awaited by the next send or drain; not unhandled meanwhile
  }

  async drain(): Promise<void> {
    await this.inFlight;
  }
}

/**
 * UNLINKs every key matching a SCAN `pattern` (freed in Redis's background thread), a page of the keyspace at a time;
 * `keep` spares the keys it accepts. O(keys in the server), for rebuilds and clean-ups, never a request path.
 */
export async function unlinkMatching(redis: Redis, pattern: string, keep: (key: string) => boolean = () => false): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    const gone = keys.filter((key) => !keep(key));
    if (gone.length) await redis.unlink(...gone);
    cursor = next;
  } while (cursor !== '0');
}
