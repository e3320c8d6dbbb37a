import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { NoRateLimit, Public } from '../../auth/auth.decorator';
import { REDIS } from '../redis/redis.module';

type Check = 'up' | 'down';

/**
 * Liveness of the service and its two backing stores, for load balancers and `docker compose` health checks:
 * 503 while either store is unreachable, 200 again as soon as it is back (both clients reconnect by themselves).
 * Hand-written rather than @nestjs/terminus: two probes with a timeout, in the documented shape.
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Public()
  @NoRateLimit()
  @Get('health')
  @HttpCode(200)
  async health(@Res({ passthrough: true }) response: Response) {
    const [postgres, redis] = await Promise.all([this.probe(() => this.dataSource.query('SELECT 1')), this.probe(() => this.redis.ping())]);
    const ok = postgres === 'up' && redis === 'up';
    response.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'degraded', checks: { postgres, redis } };
  }

  private async probe(check: () => Promise<unknown>): Promise<Check> {
    try {
      await Promise.race([check(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
      return 'up';
    } catch {
      return 'down';
    }
  }
}
