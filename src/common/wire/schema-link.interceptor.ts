import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { map } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { holdsRawJson, serializeWire } from './raw-json';
import { schemaLink } from './rendered-json';
import { WIRE_SCHEMA } from './wire-operation.decorator';

/**
 * Adds `$schema: <PUBLIC_BASE_URL>/schemas/<Name>.json` to every top-level object response of a wire operation, and
 * serializes the responses that hold pre-serialized parts (RawJson) itself.
 */
@Injectable()
export class SchemaLinkInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler) {
    const schema = this.reflector.get<string | undefined>(WIRE_SCHEMA, context.getHandler());
    if (!schema) return next.handle();
    const link = schemaLink(this.config.publicBaseUrl, schema);
    return next.handle().pipe(
      map((body: unknown) => {
        if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
        const linked = { $schema: link, ...body };
        if (!holdsRawJson(body)) return linked;
        // Sent as the text res.json would have sent (same type, charset, length and ETag; see raw-json.ts).
        context.switchToHttp().getResponse<Response>().setHeader('Content-Type', 'application/json');
        return serializeWire(linked);
      }),
    );
  }
}
