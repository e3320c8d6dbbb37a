import { NestFactory } from '@nestjs/core';
import { ApiModule } from './api.module';
import { loadConfig } from './config/app-config';
import { createOpenApiDocument, serializeOpenApi } from './openapi/openapi';

/**
 * The checked-in `openapi.json`, regenerated from the code. The API module boots in preview mode: its
 * graph is scanned but no provider is instantiated, so no database or Redis is needed.
 */
export async function generateOpenApiJson(): Promise<string> {
  const app = await NestFactory.create(ApiModule.forRoot(loadConfig({})), { preview: true, logger: false, abortOnError: false });
  try {
    return serializeOpenApi(createOpenApiDocument(app));
  } finally {
    await app.close();
  }
}
