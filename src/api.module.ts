import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { AccountsModule } from './accounts/accounts.module';
import { AnalyticsEventsModule } from './analytics-events/analytics-events.module';
import { AccountSettingsModule } from './account-settings/account-settings.module';
import { SessionsModule } from './sessions/sessions.module';
import { ActivityModule } from './activity/activity.module';
import { AppsModule } from './apps/apps.module';
import { DonationsModule } from './donations/donations.module';
import { SiteModule } from './site/site.module';
import { ItemsModule } from './items/items.module';
import { QueueModule } from './common/queue/queue.module';
import { LeaderboardsModule } from './leaderboards/leaderboards.module';
import { ExportsModule } from './exports/exports.module';
import { GroupsModule } from './groups/groups.module';
import { SimulatorHostService } from './platform/simulator-host.service';
import { AuthModule } from './auth/auth.module';
import { StreamTicketsModule } from './auth/stream-tickets/stream-tickets.module';
import { CredentialGuard } from './auth/guards/credential.guard';
import { RoleGuard } from './auth/guards/role.guard';
import { HealthController, StoreHealthIndicators } from './health/health.controller';
import { JsonBodyMiddleware, LARGE_BODY_ROUTES } from './common/http/json-body.middleware';
import { JsonBodyPool } from './common/http/json-body-pool';
import { uploadImagesBodyRoute } from './images/upload-body-route';
import { LARGE_BODY_CREDENTIALS, LargeBodyGate } from './common/large-bodies/large-body-gate';
import { BearerLargeBodyCredentials } from './auth/large-body-credentials';
import { RequestSchemas, WireValidationPipe } from './common/http/validation';
import { JsonSchemaRegistry } from './openapi/json-schema.registry';
import { SchemasController } from './openapi/schemas.controller';
import { ProblemDetailsFilter } from './common/problem/problem-details.filter';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { StatsModule } from './stats/stats.module';
import { RefreshModule } from './refresh/refresh.module';
import { OperatorsModule } from './operators/operators.module';
import { MetricsModule } from './common/metrics/metrics.module';
import { PricingModule } from './pricing/pricing.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { SignInModule } from './signin/signin.module';
import { DeveloperAppsModule } from './developer-apps/developer-apps.module';
import { EmailModule } from './email/email.module';
import { PreferencesModule } from './preferences/preferences.module';
import { WatchesModule } from './watches/watches.module';
import { ConnectionsModule } from './connections/connections.module';
import { StaffModule } from './staff/staff.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { LocationsModule } from './locations/locations.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { CraftingModule } from './crafting/crafting.module';
import { RequestLogMiddleware } from './common/logging/request-log';

/** The HTTP process: the area modules' controllers behind the global guard, pipe and filter. */
@Module({})
export class ApiModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot(config),
        MetricsModule.forRoot('api'),
        QueueModule,
        AuthModule,
        StreamTicketsModule,
        AccountsModule,
        AnalyticsEventsModule,
        AccountSettingsModule,
        SessionsModule,
        AppsModule,
        ItemsModule,
        ActivityModule,
        SiteModule,
        DonationsModule,
        LeaderboardsModule,
        ExportsModule,
        GroupsModule,
        StatsModule,
        RefreshModule,
        OperatorsModule,
        PricingModule,
        WebhooksModule,
        SignInModule,
        DeveloperAppsModule,
        EmailModule,
        PreferencesModule,
        WatchesModule,
        ConnectionsModule,
        StaffModule,
        MaintenanceModule,
        LocationsModule,
        AnalyticsModule,
        CraftingModule,
        // Health probes; failures are not logged by terminus: each store outage is logged once where it is seen.
        TerminusModule.forRoot({ logger: false }),
      ],
      controllers: [HealthController, SchemasController],
      providers: [
        JsonSchemaRegistry,
        RequestSchemas,
        JsonBodyPool,
        { provide: LARGE_BODY_ROUTES, useValue: [uploadImagesBodyRoute(config)] },
        // The gate asks the auth area whether a large body's credential is live before it reads a byte of it.
        { provide: LARGE_BODY_CREDENTIALS, useExisting: BearerLargeBodyCredentials },
        LargeBodyGate,
        SimulatorHostService,
        StoreHealthIndicators,
        { provide: APP_GUARD, useClass: CredentialGuard },
        // After the credential guard (global guards run in this order): `@RequireRole` operations.
        { provide: APP_GUARD, useClass: RoleGuard },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        { provide: APP_PIPE, useClass: WireValidationPipe },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // The request's id, log line and context first (common/logging/request-log.ts), so that everything after it (the
    // body's errors too) is logged under the id.
    consumer.apply(RequestLogMiddleware, JsonBodyMiddleware).forRoutes('*');
  }
}
