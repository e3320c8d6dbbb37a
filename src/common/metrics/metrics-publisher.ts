import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { AggregatorRegistry, Registry } from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { JsonLogger } from '../logging/json-logger';
import { REDIS, redisKey } from '../redis/redis.module';
import { ServiceMetrics } from './service-metrics';

/** How often each process copies its metrics to Redis: a scrape sees the other processes at most this late. */
export const PUBLISH_MS = 5_000;
/** A copy older than this is of a process that stopped: dropped. */
const STALE_MS = 6 * PUBLISH_MS;

/** A registry's metrics as `getMetricsAsJSON` gives them. */
type MetricJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];

interface Published {
  at: number;
  metrics: MetricJson[];
}

/**
 * Copies this process's metrics (ServiceMetrics) into one Redis hash every PUBLISH_MS, one field per process, and
 * sums every live copy for `/metrics`: the API processes of a cluster and the worker are scraped through any API
 * process, with no port per process. prom-client's AggregatorRegistry does the sums (counters and histograms add;
 * each gauge says how it combines: event-loop lag averages, follower lag takes the largest).
 */
@Injectable()
export class MetricsPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new JsonLogger('MetricsPublisher');
  private readonly key: string;
  private readonly field = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly metrics: ServiceMetrics,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.key = redisKey(config, 'metrics', 'processes');
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.publish(), PUBLISH_MS).unref();
    void this.publish();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.redis.hdel(this.key, this.field).catch(() => undefined);
  }

  /** Writes this process's copy now (also for tests, which do not wait for the timer). */
  async publish(): Promise<void> {
    try {
      const copy: Published = { at: Date.now(), metrics: await this.metrics.registry.getMetricsAsJSON() };
      await this.redis.hset(this.key, this.field, JSON.stringify(copy));
    } catch (error) {
      this.logger.warn({ msg: 'metrics not published', error: String(error) });
    }
  }

  /** Every live process's metrics summed: this process's as they are now, the others' as last published. */
  async aggregate(): Promise<Registry> {
    const copies = await this.redis.hgetall(this.key);
    const now = Date.now();
    const live: MetricJson[][] = [await this.metrics.registry.getMetricsAsJSON()];
    const stale: string[] = [];
    for (const [field, text] of Object.entries(copies)) {
      if (field === this.field) continue;
      const copy = JSON.parse(text) as Published;
      if (now - copy.at > STALE_MS) stale.push(field);
      else live.push(copy.metrics);
    }
    if (stale.length) await this.redis.hdel(this.key, ...stale);
    return AggregatorRegistry.aggregate(live);
  }
}
