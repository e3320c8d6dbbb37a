import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiJson } from '../../src/openapi-json';
import { startTestApp, TestContext } from '../support/test-app';

describe('OpenAPI document and Swagger UI', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('openapi');
  });
  afterAll(() => ctx.close());

  it('should match the checked-in openapi.json (run `npm run openapi` after changing the API)', async () => {
    const committed = readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8');
    expect(await generateOpenApiJson()).toBe(committed);
  });

  it('should name every operation by its wire id and serve it at POST /v1/<id> with the bearer scheme', async () => {
    const res = await ctx.http().get('/openapi.json').expect(200);
    expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operations = Object.entries(res.body.paths as Record<string, Record<string, { operationId: string; security?: unknown }>>);
    expect(operations.length).toBeGreaterThan(0);
    for (const [path, methods] of operations) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(`${method.toUpperCase()} ${path}`).toBe(
          // The streams, and the one operation the wire reference serves by GET.
          operation.operationId.endsWith('subscribe') ||
            operation.operationId.startsWith('activity.stream') ||
            operation.operationId === 'location.getLocations'
            ? `GET /v1/${operation.operationId}`
            : `POST /v1/${operation.operationId}`,
        );
      }
    }
  });

  it('should declare the optional read-only `$schema` link on every object answer an operation names', async () => {
    const res = await ctx.http().get('/openapi.json').expect(200);
    type Media = { schema?: { $ref?: string } };
    const schemas = res.body.components.schemas as Record<
      string,
      { type?: string; properties?: Record<string, object>; required?: string[] }
    >;
    const named = Object.values(
      res.body.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, Media> }> }>>,
    )
      .flatMap((methods) => Object.values(methods))
      .flatMap((operation) => Object.entries(operation.responses).filter(([status]) => status.startsWith('2')))
      .map(([, response]) => response.content?.['application/json']?.schema?.$ref?.replace('#/components/schemas/', ''))
      .filter((name): name is string => name !== undefined && schemas[name].type === 'object');
    expect(named.length).toBeGreaterThan(50);
    for (const name of named) {
      expect([name, schemas[name].properties?.$schema]).toEqual([name, { type: 'string', format: 'uri', readOnly: true }]);
      expect(schemas[name].required ?? []).not.toContain('$schema');
    }
  });

  it('should describe every operation so that a person can run it from Swagger UI', async () => {
    type Response = { description?: string; content?: Record<string, { examples?: Record<string, { $ref: string }> }> };
    type Operation = {
      operationId: string;
      description?: string;
      'x-access'?: string;
      parameters?: Parameter[];
      responses: Record<string, Response>;
    };
    type Parameter = { name: string; in: string; required?: boolean };
    const document = (await ctx.http().get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { examples: Record<string, { value: { status: number } }> };
    };
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    for (const operation of operations) {
      const where = operation.operationId;
      expect([where, operation.description]).toEqual([where, expect.stringMatching(/^\*\*Access:\*\* .+\n\n\S/)]);
      expect(['any', 'session', 'optional', 'refresh-token', 'sign-in', 'public']).toContain(operation['x-access']);
      // Optional headers are optional, and each is listed once.
      const headers = (operation.parameters ?? []).filter((p) => p.in === 'header');
      expect(headers.filter((p) => p.required).map((p) => `${where} ${p.name}`)).toEqual([]);
      expect(new Set(headers.map((p) => p.name.toLowerCase())).size).toBe(headers.length);
      for (const [status, response] of Object.entries(operation.responses)) {
        expect([where, status, Boolean(response.description)]).toEqual([where, status, true]);
        for (const example of Object.values(response.content?.['application/problem+json']?.examples ?? {})) {
          const name = example.$ref.replace('#/components/examples/', '');
          expect([where, status, document.components.examples[name].value.status]).toEqual([where, status, Number(status)]);
        }
      }
    }
  });

  it('should describe each stream with its events, their payload schemas and how to open it', async () => {
    const document = (await ctx.http().get('/openapi.json').expect(200)).body;
    const streams = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([, methods]) =>
      methods.get?.responses['200'].content?.['text/event-stream'] ? [methods.get] : [],
    );
    expect(streams.map((s) => s.operationId).sort()).toEqual([
      'account.subscribe',
      'activity.streamGlobalFeed',
      'badge.pricing.subscribe',
      'site.subscribe',
      'stats.subscribe',
    ]);
    for (const stream of streams) {
      const events = stream.responses['200'].content['text/event-stream'].schema.items.oneOf as {
        properties: { event: { enum: string[] }; data: { $ref: string } };
      }[];
      expect(events.length).toBeGreaterThanOrEqual(2);
      for (const event of events) {
        expect(stream.description).toContain(`\`${event.properties.event.enum[0]}\``);
        expect(document.components.schemas[event.properties.data.$ref.replace('#/components/schemas/', '')]).toBeDefined();
      }
      expect(stream.description).toContain('auth.createStreamTicket');
      expect(stream.parameters.find((p: { name: string }) => p.name === 'ticket')).toMatchObject({ in: 'query', required: false });
    }
    expect(document.paths['/v1/auth.createStreamTicket'].post.description).toContain('extension');
  });

  it('should offer "Try it out" for POST operations only (a stream never ends)', async () => {
    const res = await ctx.http().get('/docs/swagger-ui-init.js').expect(200);
    expect(res.text).toMatch(/"supportedSubmitMethods":\s*\[\s*"post"\s*\]/);
  });

  it('should serve Swagger UI at /docs', async () => {
    const res = await ctx.http().get('/docs/').expect(200);
    expect(res.text).toContain('swagger-ui');
  });
});
