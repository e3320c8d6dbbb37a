import { storeOutage } from '../health/store-outage';
import { JsonLogger } from '../logging/json-logger';

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/**
 * Runs `step` again, with backoff (250 ms doubling to 5 s), while it fails because a store is away (storeOutage), for
 * up to `giveUpAfterMs`; any other error, or the last outage, is thrown. For the writes that settle a state nothing
 * else would settle (an update's final status): the store coming back must find them done, not lost with the attempt.
 * Logs the first outage and the recovery once each, not every retry.
 */
export async function retryThroughOutage<T>(
  logger: JsonLogger,
  what: string,
  step: () => Promise<T>,
  giveUpAfterMs = 10 * 60_000,
): Promise<T> {
  const deadline = Date.now() + giveUpAfterMs;
  let delay = FIRST_DELAY_MS;
  let retries = 0;
  for (;;) {
    try {
      const result = await step();
      if (retries) logger.log({ msg: 'store back; write done', what, retries });
      return result;
    } catch (error) {
      if (!storeOutage(error) || Date.now() + delay > deadline) throw error;
      if (!retries) logger.warn({ msg: 'store away; retrying the write', what, error: String(error) });
      retries++;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
