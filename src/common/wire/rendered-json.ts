import type { Response } from 'express';
import { serializeWire } from './raw-json';

/** The `$schema` link of a wire response: what linkWireSchemas (schema-link.ts) puts first in every object answer. */
export function schemaLink(publicBaseUrl: string, schema: string): string {
  return `${publicBaseUrl}/schemas/${schema}.json`;
}

/**
 * A wire answer serialised once and sent as is to every caller it is valid for. For a large answer that is the
 * same for everyone (`leaderboard.listBadges`: ~860 badges, ~300 kB), building the objects and `JSON.stringify`
 * on every request was most of the API's CPU; the bytes here are the same `JSON.stringify` output, made once.
 */
export class RenderedJson {
  readonly body: Buffer;

  /** An answer's text as it is sent: from `RenderedJson.of`, or written by its service (the profile, profile-text.ts). */
  constructor(text: string) {
    this.body = Buffer.from(text, 'utf8');
  }

  /**
   * `schema` names the response DTO: the body starts with its `$schema` link, as linkWireSchemas (schema-link.ts) adds
   * it to the others; null for a bare answer (an array or a map), which has none. RawJson parts go in as they are.
   */
  static of(publicBaseUrl: string, schema: string | null, answer: object): RenderedJson {
    const linked = schema === null ? answer : { $schema: schemaLink(publicBaseUrl, schema), ...answer };
    return new RenderedJson(serializeWire(linked));
  }
}

/**
 * Sends a rendered answer with the headers `res.json` would give it (`application/json; charset=utf-8`,
 * Content-Length), for a handler that takes `@Res()`.
 */
export function sendRenderedJson(res: Response, rendered: RenderedJson): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.send(rendered.body);
}
