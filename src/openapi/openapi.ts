import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../common/auth/auth.decorator';
import { ProblemDetailsDto } from '../common/problem/problem-details.dto';
import { problemExamples } from '../common/wire/problem-responses';
import { REQUEST_EXAMPLES } from './request-examples';

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

const DESCRIPTION = [
  'Accounts, badges, apps, leaderboards and platform statistics of a game platform. Every operation is',
  '`POST /v1/<area>.<operation>` with a JSON body; errors are `application/problem+json`. Each operation states its',
  'access class: most take `Authorization: Bearer <API key or session token>` (the button **Authorize**; mint a key',
  'with `npm run cli -- api-key create --account 1`), a few need none. The examples name account 1 of the built-in',
  'simulator; queue its first update (`account.queueUpdate`) to fill its badges, apps and leaderboards.',
  '',
  'The event streams (`GET /v1/*.subscribe`, `activity.streamGlobalFeed`) are described here but cannot be run from',
  'this page; each says how to open it. `auth.createStreamTicket` is an extension of this service: it mints the',
  'short-lived ticket a browser `EventSource` opens a stream with, since it cannot send `Authorization`.',
].join('\n');

/** The OpenAPI document, generated from the controllers and DTO classes; the same code serves /openapi.json. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Badge statistics API')
    .setDescription(DESCRIPTION)
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
  declareSchemaLinks(document);
  addRequestExamples(document);
  document.components = { ...document.components, examples: problemExamples() };
  return sortKeys(document);
}

/** Puts each operation's example body (request-examples.ts) on its JSON request body, where Swagger UI uses it. */
function addRequestExamples(document: OpenAPIObject): void {
  for (const methods of Object.values(document.paths)) {
    for (const operation of [methods.post, methods.get]) {
      const media =
        operation?.requestBody && 'content' in operation.requestBody ? operation.requestBody.content['application/json'] : undefined;
      const example = operation?.operationId ? REQUEST_EXAMPLES[operation.operationId] : undefined;
      if (media && example !== undefined) media.example = example;
    }
  }
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

/**
 * Every object answer of a wire operation starts with its `$schema` link (schema-link.ts), so each response schema an
 * operation names at the top level declares that optional, read-only field: a client generated from this document
 * then knows it (the wire format lists it on every response body). Closed (request) schemas are left alone.
 */
function declareSchemaLinks(document: OpenAPIObject): void {
  const components = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as {
      responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
    }[]) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const ref = status.startsWith('2') ? response.content?.['application/json']?.schema?.$ref : undefined;
        const schema = ref ? components[ref.replace('#/components/schemas/', '')] : undefined;
        if (!schema || schema.type !== 'object' || schema.additionalProperties === false) continue;
        const properties = (schema.properties ?? {}) as Record<string, unknown>;
        schema.properties = { $schema: { type: 'string', format: 'uri', readOnly: true }, ...properties };
      }
    }
  }
}

export function serializeOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}
