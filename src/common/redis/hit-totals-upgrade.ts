/**
 * # Hit totals moved from sorted sets to hashes
 *
 * The trending counters (profile views, searches: trending-counter.ts) once kept a bucket's hits per member as the
 * scores of a sorted set named `…:rank-total:<bucket>`; they now keep them in a hash named `…:hits:<bucket>`. A Redis
 * written by an earlier version still holds the sorted sets, up to 32 days of them, which no read looks at any more.
 * Once per Redis (a marker key says it is done) the first process to boot moves them: a SCAN of the service's keys
 * for the old name, then each set emptied into its hash a chunk at a time, each chunk popped and added by one script,
 * so that processes booting together never count a hit twice, and hits written meanwhile add up. The hash keeps the
 * later of the two expiries. Runs in the background: until it is through, a read misses the hits not moved yet.
 */
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JsonLogger } from '../logging/json-logger';
import { REDIS, redisKey } from './redis.module';
import { HITS_KEY, LEGACY_HITS_KEY } from './trending-counter';

/** Members moved per script run: a chunk holds Redis for well under a millisecond. */
const CHUNK = 500;

/** KEYS: [1] the sorted set, [2] its hash. ARGV: [1] chunk size. Returns how many members it moved. */
const MOVE_CHUNK = `
local ttl = redis.call('PTTL', KEYS[1])
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
for i = 1, #popped, 2 do
  redis.call('HINCRBY', KEYS[2], popped[i], math.floor(tonumber(popped[i + 1]) + 0.5))
end
if #popped > 0 and ttl > 0 and redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
return #popped / 2`;

@Injectable()
export class HitTotalsUpgrade implements OnApplicationBootstrap {
  private readonly logger = new JsonLogger('HitTotalsUpgrade');
  private readonly marker: string;
  private readonly pattern: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.marker = redisKey(config, 'upgrades', 'hits-in-hashes');
    this.pattern = redisKey(config, '*', `${LEGACY_HITS_KEY}:*`);
  }

  onApplicationBootstrap(): void {
    this.run().catch((error: unknown) => this.logger.warn({ msg: 'hit totals not moved yet', error: String(error) }));
  }

  /** Moves every legacy set of this service's prefix into its hash, unless done before; returns how many sets it moved. */
  async run(): Promise<number> {
    if (await this.redis.exists(this.marker)) return 0;
    let [cursor, sets] = ['0', 0];
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', this.pattern, 'COUNT', 1000);
      for (const key of keys) {
        const hash = key.replace(`:${LEGACY_HITS_KEY}:`, `:${HITS_KEY}:`);
        let moved: number;
        do moved = Number(await this.redis.eval(MOVE_CHUNK, 2, key, hash, CHUNK));
        while (moved === CHUNK);
        sets++;
      }
      cursor = next;
    } while (cursor !== '0');
    await this.redis.set(this.marker, new Date().toISOString());
    if (sets) this.logger.log({ msg: 'hit totals moved from sorted sets to hashes', sets });
    return sets;
  }
}
