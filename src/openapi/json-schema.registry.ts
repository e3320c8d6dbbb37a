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
  /** A strong ETag of each schema's document: clients revalidate with If-None-Match (a 304). */
  private etags = new Map<string, string>();

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
    const etagOf = (schema: Schema) => `"${createHash('sha1').update(JSON.stringify(schema)).digest('base64url')}"`;
    this.etags = new Map([...this.schemas].map(([name, schema]) => [name, etagOf(schema)]));
  }

  get(name: string): Schema | undefined {
    return this.schemas.get(name);
  }

  etag(name: string): string | undefined {
    return this.etags.get(name);
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
  // A nullable reference (`allOf: [$ref]` beside `type`) must take the anyOf form: a type union alone would still
  // be refused by the allOf branch, so the schema would reject the null it documents.
  const composed = 'allOf' in out || 'oneOf' in out || 'anyOf' in out;
  if (typeof out.type === 'string' && !composed)
    return { ...out, type: [out.type, 'null'], ...(out.enum ? { enum: [...(out.enum as unknown[]), null] } : {}) };
  return { anyOf: [out, { type: 'null' }] };
}
