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
