import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Response } from 'express';
import { holdsRawJson, serializeWire } from './raw-json';
import { schemaLink } from './rendered-json';
import { WIRE_SCHEMA } from './wire-operation.decorator';

/**
 * Adds `$schema: <PUBLIC_BASE_URL>/schemas/<Name>.json` first in every top-level object answer of a wire operation,
 * and sends the answers that hold pre-serialized parts (RawJson) as `serializeWire` writes them.
 *
 * Done on this app's `res.json` (express gives each app its own response prototype), not as a Nest interceptor:
 * with any interceptor, global or per route, every request goes through Nest's interceptor chain, whose two
 * `AsyncResource.bind` calls per request (each defining two deprecation wrappers on Node 20) and RxJS plumbing were
 * ~5 % of the API's CPU under `account.getInfo` load (docs/performance-history.md). Only successful answers of routes declared
 * with `WireOperation({ response })` are linked; problem details and rendered answers are sent otherwise.
 */
export function linkWireSchemas(app: NestExpressApplication, publicBaseUrl: string): void {
  const links = wireSchemaLinks(app, publicBaseUrl);
  const response = app.getHttpAdapter().getInstance().response as Response;
  const json = response.json;
  response.json = function linkedJson(this: Response, body?: unknown) {
    const route = (this.req as { route?: { path?: string } }).route?.path;
    const link = route === undefined || this.statusCode >= 300 ? undefined : links.get(`${this.req.method} ${route}`);
    if (!link || typeof body !== 'object' || body === null || Array.isArray(body)) return json.call(this, body);
    const linked = { $schema: link, ...body };
    if (!holdsRawJson(body)) return json.call(this, linked);
    // The text res.json would have sent (same type, charset and length; see raw-json.ts).
    this.setHeader('Content-Type', 'application/json');
    return this.send(serializeWire(linked));
  };
}

/** `METHOD /path` of every routed handler carrying WIRE_SCHEMA → its `$schema` link. */
function wireSchemaLinks(app: NestExpressApplication, publicBaseUrl: string): Map<string, string> {
  const links = new Map<string, string>();
  const join = (...parts: string[]) =>
    `/${parts
      .map((part) => part.replace(/^\/+|\/+$/g, ''))
      .filter(Boolean)
      .join('/')}`;
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const prefix = (Reflect.getMetadata(PATH_METADATA, metatype) as string | undefined) ?? '';
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function') continue;
        const schema = Reflect.getMetadata(WIRE_SCHEMA, handler) as string | undefined;
        if (!schema) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const path = (Reflect.getMetadata(PATH_METADATA, handler) as string | undefined) ?? '';
        links.set(`${method} ${join(prefix, path)}`, schemaLink(publicBaseUrl, schema));
      }
    }
  }
  return links;
}
