import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/**
 * Serves the JSON Schema behind each `$schema` link, derived from the OpenAPI components (3.0 `nullable`
 * becomes a JSON Schema type union, component refs become links to sibling schema documents).
 */
@Injectable()
export class JsonSchemaRegistry {
  private schemas = new Map<string, Schema>();
  private readonly etags = new Map<string, string>();

  load(document: OpenAPIObject, baseUrl: string): void {
    const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
    this.schemas = new Map(
      Object.entries(components).map(([name, schema]) => [
        name,
        {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $id: `${baseUrl}/schemas/${name}.json`,
          title: name,
          ...(convert(schema, baseUrl) as Schema),
        },
      ]),
    );
    this.etags.clear();
  }

  get(name: string): Schema | undefined {
    return this.schemas.get(name);
  }

  /** A strong ETag of the schema's document, computed once: clients revalidate with If-None-Match (a 304). */
  etag(name: string): string | undefined {
    const schema = this.schemas.get(name);
    if (!schema) return undefined;
    let etag = this.etags.get(name);
    if (!etag) this.etags.set(name, (etag = `"${createHash('sha1').update(JSON.stringify(schema)).digest('base64url')}"`));
    return etag;
  }
}

function convert(node: unknown, baseUrl: string): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, baseUrl));
  if (!node || typeof node !== 'object') return node;
  const source = node as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example') continue;
    if (key === '$ref' && typeof value === 'string') {
      const match = COMPONENT_REF.exec(value);
      out.$ref = match ? `${baseUrl}/schemas/${match[1]}.json` : value;
      continue;
    }
    out[key] = convert(value, baseUrl);
  }
  if (source.nullable !== true) return out;
  if (typeof out.type === 'string')
    return { ...out, type: [out.type, 'null'], ...(out.enum ? { enum: [...(out.enum as unknown[]), null] } : {}) };
  return { anyOf: [out, { type: 'null' }] };
}
