import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { schemaLink } from './rendered-json';
import { WIRE_SCHEMA } from './wire-operation.decorator';

/** Adds `$schema: <PUBLIC_BASE_URL>/schemas/<Name>.json` to every top-level object response of a wire operation. */
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
    return next
      .handle()
      .pipe(map((body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? { $schema: link, ...body } : body)));
  }
}
