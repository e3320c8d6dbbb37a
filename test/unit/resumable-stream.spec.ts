import { MessageEvent } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS_URL } from '../support/stores';
import { EMPTY, Observable } from 'rxjs';
import { RedisChannel } from 'src/common/redis/redis-channel';
import { ReplayLog } from 'src/common/replay/replay-log';
import { ReplayTail } from 'src/common/replay/replay-tail';
import { openResumableStream } from 'src/common/replay/resumable-stream';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A resumable stream over a real Redis log, whose heartbeats count their subscriptions. */
describe('openResumableStream', () => {
  const redis = new Redis(REDIS_URL);
  const root = `test:resumable-stream:${process.pid}:${Date.now()}`;
  const tail = new ReplayTail(new ReplayLog(redis, `${root}:log`, { maxLen: 100 }), new RedisChannel(redis, `${root}:events`));
  const beats = { subscribed: 0, active: 0 };
  const heartbeats = new Observable<MessageEvent>(() => {
    beats.subscribed++;
    beats.active++;
    return () => beats.active--;
  });

  afterAll(async () => {
    const keys = await redis.keys(`${root}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('should start no heartbeats for a stream torn down while it opens, and stop those of one torn down later', async () => {
    const stream = await openResumableStream({ tail, lastEventId: undefined, refetch: [], render: () => EMPTY, heartbeats });
    // The client leaves (or the API shuts down) while the stream still waits for its tail and reads the log: its
    // heartbeats, subscribed after those reads, would tick for as long as the process lives.
    stream.subscribe().unsubscribe();
    await sleep(300);
    expect(beats.subscribed).toBe(0);

    // A stream that opens gets its heartbeats, and leaving stops them.
    const open = stream.subscribe();
    for (let waited = 0; beats.subscribed === 0 && waited < 5000; waited += 20) await sleep(20);
    expect(beats.active).toBe(1);
    open.unsubscribe();
    expect(beats.active).toBe(0);
  });
});
