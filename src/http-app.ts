import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { ApiModule } from './api.module';
import { RequestSchemas } from './common/http/validation';
import { PrototypedExpressAdapter } from './common/http/prototyped-express-adapter';
import { JsonLogger } from './common/logging/json-logger';
import { nestLogger } from './common/logging/pino';
import { JsonSchemaRegistry } from './openapi/json-schema.registry';
import { createOpenApiDocument } from './openapi/openapi';
import { AppConfig } from './config/app-config';
import { linkWireSchemas } from './common/wire/schema-link';
import { browserAccess } from './common/http/browser-access';
import { applyServerTimeouts } from './common/http/server-timeouts';
import { ServiceMetrics } from './common/metrics/service-metrics';
import { DASHBOARD_PATH, DashboardAccess } from './operators/dashboard/dashboard-access.service';
import { queueDashboard } from './operators/dashboard/queue-dashboard';
import { OperatorQueues } from './operators/operator-queues';

/**
 * Builds the HTTP application exactly as production runs it; main.ts listens on it and the e2e tests drive
 * it with supertest, so both exercise the same guards, pipes, filters and documents. Signals are handled by
 * the entrypoint (see stopOnSignals in boot.ts), not by Nest's shutdown hooks.
 */
export async function createHttpApp(config: AppConfig): Promise<NestExpressApplication> {
  JsonLogger.setLevel(config.logLevel);
  // Its server builds requests with Express's prototypes already set (prototyped-express-adapter.ts).
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config), new PrototypedExpressAdapter(), {
    bodyParser: false,
    logger: nestLogger(),
    abortOnError: false,
  });
  app.disable('x-powered-by');
  applyServerTimeouts(app.getHttpServer(), config.httpServer);
  // Security headers on every answer and CORS for the web app's origins, before any route (browser-access.ts).
  app.use(browserAccess(config.cors.origins));
  // The queue dashboard, for staff, behind its own gate (operators/dashboard/queue-dashboard.ts).
  app.use(DASHBOARD_PATH, ...queueDashboard(app.get(DashboardAccess), app.get(OperatorQueues).all));
  // No ETag computed per answer. Every wire operation is a POST, which Express never answers with 304 (only a GET or
  // HEAD is conditional): its default ETag was a SHA-1 of every answer's bytes for nobody, ~3 % of the API's CPU
  // under account.findFriendPath (docs/performance-history.md, "No ETag on POST answers"). The GET documents
  // clients revalidate set their own (SchemasController, ImageFilesController).
  app.set('etag', false);
  // `$schema` in every object answer of a wire operation (on this app's res.json; see schema-link.ts).
  linkWireSchemas(app, config.publicBaseUrl);
  // Anonymous callers are rate-limited by address: behind proxies the address is the one they forward.
  if (config.trustProxyHops > 0) app.set('trust proxy', config.trustProxyHops);
  const document = createOpenApiDocument(app);
  app.get(JsonSchemaRegistry).load(document, config.publicBaseUrl);
  // Requests are validated against this same document (see WireValidationPipe).
  app.get(RequestSchemas).load(document);
  // Requests are counted per operation: the document's paths; any other path counts as `other` (ServiceMetrics).
  app.get(ServiceMetrics).knowOperations(Object.keys(document.paths));
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    // "Try it out" for the POST operations only: the GET routes are the event streams, whose response never
    // ends, so Swagger UI would wait on them forever. Their descriptions say how to open them instead.
    swaggerOptions: { supportedSubmitMethods: ['post'] },
  });
  return app;
}
