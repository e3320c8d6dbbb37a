import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiJson } from '../../src/common/openapi/generate';
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
          operation.operationId.endsWith('subscribe') || operation.operationId.startsWith('activity.stream')
            ? `GET /v1/${operation.operationId}`
            : `POST /v1/${operation.operationId}`,
        );
      }
    }
  });

  it('should serve Swagger UI at /docs', async () => {
    const res = await ctx.http().get('/docs/').expect(200);
    expect(res.text).toContain('swagger-ui');
  });
});
