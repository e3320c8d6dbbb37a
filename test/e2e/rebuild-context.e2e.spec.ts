import { INestApplicationContext } from '@nestjs/common';
import Redis from 'ioredis';
import { dropDatabase } from '../../src/database/ensure-database';
import { BoardChanges } from '../../src/leaderboards/changes/board-changes.service';
import { rebuildContext } from '../../src/seed/rebuild-processes';
import { AppConfig } from '../../src/config/app-config';
import { cloneTemplate } from '../support/databases';
import { clearRedisPrefix, REDIS_URL, testConfig, uniqueName } from '../support/test-app';

/**
 * A context made for rebuilding (the seed's two processes, the CLI) builds a Redis keeper only when asked: a read or a
 * periodic task that finds no version (the worker's change-snapshot refresher does) must not start a build there, or
 * the process that left a keeper to the other would build it too, and the other would then build it again.
 */
describe('a rebuild context', () => {
  let config: AppConfig;
  let app: INestApplicationContext;
  let redis: Redis;

  beforeAll(async () => {
    const name = uniqueName('rebuild_context');
    await cloneTemplate(name);
    config = testConfig(name);
    app = await rebuildContext(config);
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await app?.close();
    redis?.disconnect();
    await clearRedisPrefix(config.redisPrefix);
    await dropDatabase(config.databaseUrl);
  });

  it('should start no build when a read finds no version, and build once when asked', async () => {
    const changes = app.get(BoardChanges);
    expect(await changes.currentVersion()).toBeNull();
    // A build started by that read would take version 1 first; the asked-for rebuild (which waits for any build
    // under way) would then be version 2.
    await changes.rebuild();
    expect(await redis.get(changes.keys.version)).toBe('1');
  });
});
