import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../../auth/auth.decorator';
import { ProblemDetailsDto } from '../problem/problem-details.dto';

/** Recursively orders object keys so the checked-in document diffs cleanly and deterministically. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    ) as T;
  }
  return value;
}

/** The OpenAPI document, generated from the controllers and DTO classes; the same code serves /openapi.json. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Badge statistics API')
    .setDescription(
      'Accounts, badges, apps, leaderboards and platform statistics of a game platform. Every operation is ' +
        '`POST /v1/<area>.<operation>` with a JSON body; errors are `application/problem+json`. Send ' +
        '`Authorization: Bearer <API key or session token>`.',
    )
    .setVersion('1.0.0')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'An API key (`sk_…`) or a user-session token (`auth_…`).' },
      BEARER_SCHEME,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ProblemDetailsDto],
    operationIdFactory: (_controller, method) => method,
  });
  closeRequestSchemas(document);
  return sortKeys(document);
}

/**
 * Request objects are closed: an unknown field is a 422 (the validation pipe refuses it), so the schemas that
 * request bodies reach say `additionalProperties: false`, as an earlier revision of the wire format did.
 */
function closeRequestSchemas(document: OpenAPIObject): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const ref = (node as { $ref?: unknown }).$ref;
    const name = typeof ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1] : undefined;
    if (name && !seen.has(name) && components[name]) {
      seen.add(name);
      if (components[name].type === 'object' && components[name].additionalProperties === undefined) {
        components[name].additionalProperties = false;
      }
      visit(components[name]);
    }
    Object.values(node).forEach(visit);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) visit((operation as { requestBody?: unknown })?.requestBody);
  }
}

export function serializeOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}
