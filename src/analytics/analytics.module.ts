/**
 * # Population statistics (`analytics.*`)
 *
 * Distributions, inequality, per-country aggregates, bivariate tables and a user's own percentiles of the account
 * columns, served from the rank replica every HTTP process keeps in step with the change feed (src/ranks/replica), and
 * for level, friends and account age from per-scope histograms following the same feed (histograms/):
 * exact answers from index look-ups, never an aggregate over PostgreSQL's rows per request. The badges and apps
 * domains (catalogue-domains/) answer from the catalogue tables' values, one row per badge or app, reloaded every 10 s. The design, its costs and
 * its rules (bins, quantiles, Lorenz resolution) are in docs/architecture.md, "Population statistics".
 */
import { Module } from '@nestjs/common';
import { RanksModule } from '../ranks/ranks.module';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsScopes } from './analytics-scopes';
import { AnalyticsService } from './analytics.service';
import { BivariateTables } from './bivariate-tables';
import { CatalogueValues } from './catalogue-domains/catalogue-values.service';
import { PopulationHistograms } from './histograms/population-histograms.service';
import { TrendReader } from './trends/trend-reader.service';

@Module({
  imports: [RanksModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService, AnalyticsScopes, BivariateTables, TrendReader, PopulationHistograms, CatalogueValues],
})
export class AnalyticsModule {}
