import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { NoRateLimit, Public } from '../../common/auth/auth.decorator';
import { MetricsPublisher } from '../../common/metrics/metrics-publisher';
import { notFound, unauthorized } from '../../common/problem/problem.exception';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { OperatorGauges } from './operator-gauges';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`: Prometheus text (exposition format 0.0.4) for a scraper holding METRICS_TOKEN as its bearer
 * credential; 401 for any other credential, 404 while no token is configured. Not a wire operation (no `/v1`, no
 * OpenAPI entry): the route's policy is public and the token is checked here, so a user's session or API key is no
 * way in. Every process's series summed (MetricsPublisher) plus the service-wide gauges (OperatorGauges).
 */
@ApiExcludeController()
@Controller()
export class MetricsController {
  private readonly expected: Buffer | null;

  constructor(
    private readonly publisher: MetricsPublisher,
    private readonly gauges: OperatorGauges,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.expected = config.operators.metricsToken ? digest(config.operators.metricsToken) : null;
  }

  @Get('metrics')
  @Public()
  @NoRateLimit()
  async metrics(@Headers('authorization') authorization: string | undefined, @Res() res: Response): Promise<void> {
    if (!this.expected) throw notFound('Metrics are not enabled (METRICS_TOKEN).');
    const offered = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    // Digests of equal length, compared in constant time: the comparison says nothing of the token's prefix.
    if (!offered || !timingSafeEqual(digest(offered), this.expected)) throw unauthorized('The metrics token is required.');
    const processes = await this.publisher.aggregate();
    const text = (await processes.metrics()) + (await this.gauges.registry.metrics());
    res.setHeader('Cache-Control', 'no-store');
    // Prometheus's own content type as it is (Express's `send` would add a charset).
    res.setHeader('Content-Type', processes.contentType);
    res.end(text);
  }
}
