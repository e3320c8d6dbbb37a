import { Controller, Get, Inject, Injectable, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { NoRateLimit, Public } from '../common/auth/auth.decorator';
import { REDIS } from '../common/redis/redis.module';
import { ChangeFeedFollower } from '../change-feed/change-feed-follower';

const PROBE_TIMEOUT_MS = 2000;

/**
 * The two stores' probes: a PING to Redis and a `SELECT 1` to PostgreSQL, each up when it answers within the timeout.
 * Terminus has no ioredis indicator (its Redis check needs @nestjs/microservices), and its TypeORM indicator calls
 * `require` on its optional packages on every check: a module resolution with file-system stats per probe, which
 * cost /health more CPU than the probe itself. The result shape is terminus's (HealthIndicatorService).
 */
@Injectable()
export class StoreHealthIndicators {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly indicators: HealthIndicatorService,
  ) {}

  postgresCheck<Key extends string>(key: Key) {
    return this.probe(key, () => this.dataSource.query('SELECT 1'));
  }

  redisCheck<Key extends string>(key: Key) {
    return this.probe(key, () => this.redis.ping());
  }

  private async probe<Key extends string>(key: Key, ping: () => Promise<unknown>) {
    const check = this.indicators.check(key);
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS)));
      await Promise.race([ping(), timeout]);
      return check.up();
    } catch {
      return check.down();
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Readiness of the service and its two backing stores, for load balancers and `docker compose` health checks:
 * 503 while either store is unreachable, 200 again as soon as it is back (both clients reconnect by themselves).
 * @nestjs/terminus runs the probes; its result is answered in the documented shape
 * `{status: ok|degraded, checks: {postgres: up|down, redis: up|down}}`.
 *
 * Before the process has loaded what it serves from (the change feed's projections: the friend graph, the card and
 * rank replicas, the revoked keys; ChangeFeedFollower.warming) it answers 503 `{status: starting, waitingFor: [...]}`
 * with `Retry-After`, whatever the stores say: at a million accounts the loads take seconds, and requests sent to the
 * process meanwhile queue behind them (issue 60: account.getInfo p99 130–180 ms instead of under 25).
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly stores: StoreHealthIndicators,
    private readonly feed: ChangeFeedFollower,
  ) {}

  @Public()
  @NoRateLimit()
  @Get('health')
  async check(@Res({ passthrough: true }) response: Response) {
    let result: HealthCheckResult;
    try {
      result = await this.health.check([() => this.stores.postgresCheck('postgres'), () => this.stores.redisCheck('redis')]);
    } catch (error) {
      // Terminus answers a failed check (or a shutdown under way) with a 503 that carries the same result.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      result = error.getResponse() as HealthCheckResult;
    }
    const status = (key: string) => (result.details[key]?.status === 'up' ? 'up' : 'down');
    const checks = { postgres: status('postgres'), redis: status('redis') };
    const waitingFor = this.feed.warming();
    if (waitingFor.length) {
      response.status(503).setHeader('Retry-After', '1');
      return { status: 'starting', checks, waitingFor };
    }
    const ok = result.status === 'ok';
    response.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'degraded', checks };
  }
}
