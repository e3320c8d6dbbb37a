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
 * The job also keeps each card's own quote (`card_market_prices`, card-quotes.ts), from the same calls in the same
 * transaction; `badge.listCheapest` (cheapest/) lists the fully listed sets cheapest first.
 *
 * This module is the API side (the stream, `badge.listCheapest`); PricingWorkerModule is the job.
 */
import { Module } from '@nestjs/common';
import { CheapestBadgesController } from './cheapest/cheapest-badges.controller';
import { CheapestBadgesService } from './cheapest/cheapest-badges.service';
import { PriceTicks } from './price-ticks';
import { PricingStreamController } from './pricing-stream.controller';
import { PricingStreamService } from './pricing-stream.service';

@Module({
  controllers: [PricingStreamController, CheapestBadgesController],
  providers: [PriceTicks, PricingStreamService, CheapestBadgesService],
})
export class PricingModule {}
