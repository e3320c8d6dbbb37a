/**
 * Market pricing.
 *
 * A repeatable BullMQ job in the worker (PricingProcessor, every `PRICING_INTERVAL_MS`) walks the apps whose
 * trading cards the service has seen, oldest-priced first, a bounded batch per cycle (PricingCycle). For each app
 * it reads every normal and foil card's market price through the platform client, paced by the shared
 * MarketCallPace (`PLATFORM_MARKET_CALLS_PER_MINUTE`, far below the Web API's allowance), and keeps the set
 * prices in `app_market_prices` (AppPricer, figures from set-price.ts). Each set whose figures changed is
 * published on the `<prefix>:events:pricing` channel (PriceTicks) and streamed by the API as `market-price-tick` on
 * `GET /v1/badge.pricing.subscribe`. Reads use the stored prices: app badges' `price`, `noListing` and `isNmc`
 * (BadgeCatalogService joins the table) and the profile's cost fields (BadgePriceBook).
 *
 * This module is the API side (the stream); PricingWorkerModule is the job.
 */
import { Module } from '@nestjs/common';
import { PriceTicks } from './price-ticks';
import { PricingStreamController } from './pricing-stream.controller';
import { PricingStreamService } from './pricing-stream.service';

@Module({ controllers: [PricingStreamController], providers: [PriceTicks, PricingStreamService] })
export class PricingModule {}
