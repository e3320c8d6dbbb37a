import DataLoader from 'dataloader';

/**
 * Loads asked during one turn of the event loop, handed to `batch` together (at most `maxBatchSize` at a time): a
 * DataLoader scheduled on setImmediate, so a load waits at most for the I/O callbacks already due, and caching
 * nothing, so each load sees the state of its own batch. Used where many requests in flight each make the same kind
 * of round trip (the profiles' statement, the rate-limit script) and one round trip can serve them all.
 */
export function perTurnLoader<K, V>(
  batch: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  maxBatchSize: number,
): DataLoader<K, V> {
  return new DataLoader(batch, { cache: false, maxBatchSize, batchScheduleFn: (run) => setImmediate(run) });
}
