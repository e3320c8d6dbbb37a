import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { encodeCursor } from '../../src/common/wire/cursor';
import {
  Field,
  Json,
  location,
  Mutation,
  names,
  Operation,
  RequestDocument,
  Schema,
  setAt,
  TRACKED_ACCOUNT,
  withKey,
} from '../support/hostile';
import { startTestApp, TestContext } from '../support/test-app';

/**
 * The hostile-input generator of issue 7 as a property-based suite. Requests are derived from the request
 * schemas of the app's own OpenAPI document (`GET /openapi.json`) and sent with a valid session through the
 * real stack. For every invalid request: no 5xx, no 2xx, a problem document, and a 422 names the bad field.
 * Fixed seeds keep it reproducible; a failure prints the operation, the mutation and the answer.
 */
const SEED = 7_2025;
/** The largest requests (80,000 elements, 250 kB strings, 100,000-deep nesting) must be refused this fast. */
const HUGE_BUDGET_MS = 250;
const DEEP = '<100,000 nested arrays>';
/** Per test: a few hundred requests each; generous because the machine's cores are shared. */
const LONG = 120_000;

interface Answer {
  status: number;
  type: string;
  body: { status?: number; errors?: { location?: string; message?: string; value?: unknown }[] | null };
  ms: number;
  text: string;
}

jest.setTimeout(LONG);

/** The caller of the role-checked operations (`x-roles`: checked before validation, a non-staff caller gets 403). */
const STAFF_ACCOUNT = 4_000_001;

describe('hostile input derived from the OpenAPI document', () => {
  let ctx: TestContext;
  let token: string;
  /** The staff operations are sent by a staff account of their own: they change the tracked account's roles. */
  let staffToken: string;
  /** The operations the document marks with `x-roles`. */
  const staffOperations = new Set<string>();
  let doc: RequestDocument;
  let operations: Operation[];
  const latencies: { kind: string; ms: number }[] = [];
  const huge: number[] = [];

  beforeAll(async () => {
    ctx = await startTestApp('hostile');
    // One listening server for the whole suite: supertest otherwise binds a new port for every request.
    await ctx.app.listen(0, '127.0.0.1');
    token = (await ctx.session(TRACKED_ACCOUNT)).sessionToken;
    await ctx.grantRole(STAFF_ACCOUNT, 'staff');
    staffToken = (await ctx.session(STAFF_ACCOUNT)).sessionToken;
    const document = (await ctx.http().get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, any>> };
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item)) if (operation['x-roles']) staffOperations.add(operation.operationId);
    }
    doc = new RequestDocument(document as ConstructorParameters<typeof RequestDocument>[0]);
    operations = doc.operations();
  });
  afterAll(async () => {
    const sorted = latencies.map((l) => l.ms).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(1);
    const slowest = latencies.reduce((a, b) => (b.ms > a.ms ? b : a), { kind: '-', ms: 0 });
    const largest = [...huge].sort((a, b) => a - b);
    console.log(
      `hostile requests: ${sorted.length}, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${slowest.ms.toFixed(1)} ms (${slowest.kind}); ` +
        `largest bodies: ${largest.length}, p50 ${largest[largest.length >> 1]?.toFixed(1)} ms, max ${largest[largest.length - 1]?.toFixed(1)} ms`,
    );
    await ctx.close();
  });

  async function send(
    operation: string,
    body: Json | undefined,
    kind: string,
    raw?: { data: string | Buffer; type?: string; encoding?: string },
  ): Promise<Answer> {
    // account.logout ends the session it is sent with when it succeeds: it gets one of its own each time.
    const credential =
      operation === 'account.logout'
        ? (await ctx.session(TRACKED_ACCOUNT)).sessionToken
        : staffOperations.has(operation)
          ? staffToken
          : token;
    let req = ctx.http().post(`/v1/${operation}`).set('Authorization', `Bearer ${credential}`);
    if (raw) {
      if (raw.type !== undefined) req = req.set('Content-Type', raw.type);
      if (raw.encoding) req = req.set('Content-Encoding', raw.encoding);
      req = req.send(raw.data);
    } else if (body !== undefined) {
      req = req.set('Content-Type', 'application/json').send(JSON.stringify(body));
    }
    const started = performance.now();
    const res = await req;
    const ms = performance.now() - started;
    latencies.push({ kind: `${operation} ${kind}`, ms });
    return { status: res.status, type: String(res.headers['content-type'] ?? ''), body: res.body ?? {}, ms, text: res.text };
  }

  /** The verdict on an invalid request; a string describing what is wrong, or null. */
  function refusal(answer: Answer, expected: string | null, allowed = [422]): string | null {
    if (answer.status >= 500) return `5xx: ${answer.text.slice(0, 300)}`;
    if (answer.status < 400) return `accepted with ${answer.status}`;
    if (!answer.type.startsWith('application/problem+json')) return `not problem+json: ${answer.type}`;
    if (!allowed.includes(answer.status)) return `status ${answer.status}, expected ${allowed.join('/')}: ${answer.text.slice(0, 300)}`;
    if (answer.status !== 422) return null;
    const errors = answer.body.errors ?? [];
    if (!errors.length) return '422 without errors[]';
    const unnamed = errors.find((e) => typeof e.location !== 'string' || !/^(body|query)/.test(e.location));
    if (unnamed) return `error without a location: ${JSON.stringify(unnamed)}`;
    if (expected && !errors.some((e) => names(e.location, expected))) {
      return `no error names ${expected}: ${JSON.stringify(errors.map((e) => e.location))}`;
    }
    if (JSON.stringify(answer.body).length > 8_000) return `problem document of ${JSON.stringify(answer.body).length} bytes`;
    return null;
  }

  /** Images travel as base64, so their operation alone has the larger limit. */
  function bodyLimitOf(operationId: string): number {
    const { bodyLimitBytes, images } = ctx.config;
    return operationId === 'account.uploadImages' ? Math.max(bodyLimitBytes, images.uploadBodyLimitBytes) : bodyLimitBytes;
  }

  function check(mutation: Mutation, operation: Operation, answer: Answer, allowed?: number[]): void {
    const wrong = refusal(answer, mutation.expected, allowed);
    if (wrong) throw new Error(`${operation.id} / ${mutation.kind} → ${wrong}\nbody: ${JSON.stringify(mutation.body)?.slice(0, 400)}`);
  }

  it('should state a bound on every string, array and integer of every request schema', () => {
    const problems: string[] = [];
    const seen = new Set<Schema>();
    const walk = (node: Schema, where: string) => {
      const schema = doc.resolve(node);
      if (seen.has(node)) return;
      seen.add(node);
      if (schema.type === 'string' && schema.maxLength === undefined && !schema.enum) problems.push(`${where}: string without maxLength`);
      if (schema.type === 'array' && schema.maxItems === undefined) problems.push(`${where}: array without maxItems`);
      if (schema.type === 'integer') {
        if (!['int32', 'int64'].includes(schema.format ?? '')) problems.push(`${where}: integer without int32/int64 format`);
        if (schema.minimum === undefined || schema.maximum === undefined) problems.push(`${where}: integer without minimum and maximum`);
      }
      for (const [name, child] of Object.entries(schema.properties ?? {})) walk(child, `${where}.${name}`);
      if (schema.items) walk(schema.items, `${where}[]`);
    };
    for (const operation of operations) walk(operation.schema, operation.id);
    expect(problems).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(35);
  });

  it('should bound every integer field to int32 but the ids documented past 2^31, and refuse 2^31 there with a 422 naming it', async () => {
    // The platform's item class ids exceed 2^31 (stored as text): the one request integer wider than int32.
    const WIDER = ['item.findOwners.itemIds[0]'];
    const int64: string[] = [];
    const int32: { operation: Operation; field: Field }[] = [];
    for (const operation of operations) {
      for (const field of doc.fields(operation)) {
        const schema = doc.resolve(field.schema);
        if (schema.type !== 'integer') continue;
        if (schema.format === 'int64') int64.push(`${operation.id}.${location(field.path, '').slice(1)}`);
        else int32.push({ operation, field });
      }
    }
    expect(int64).toEqual(WIDER);
    // The filters of issue 60 among them, each refused at 2^31 and at -2^31 - 1.
    const named = int32.map(({ operation, field }) => `${operation.id} ${location(field.path)}`);
    for (const expected of [
      'account.listBadges body.filters.level.min',
      'account.listBadges body.filters.scarcity.max',
      'account.listApps body.filters.playtime.max',
      'account.compareBadges body.ranges[0].min',
    ])
      expect(named).toContain(expected);
    for (const { operation, field } of int32) {
      for (const value of [2 ** 31, -(2 ** 31) - 1]) {
        const body = setAt(doc.sample(operation.schema, true), field.path, value);
        check({ kind: `int32 ${value}`, body, expected: location(field.path) }, operation, await send(operation.id, body, 'int32'));
      }
    }
  });

  it('should accept the valid body derived for every operation (the base of every mutation)', async () => {
    for (const operation of operations) {
      const minimal = await send(operation.id, doc.sample(operation.schema, false), 'minimal');
      expect({
        operation: operation.id,
        status: minimal.status,
        valid: ![400, 422].includes(minimal.status) && minimal.status < 500,
      }).toEqual(expect.objectContaining({ valid: true }));
      const full = await send(operation.id, doc.sample(operation.schema, true), 'full');
      expect({ operation: operation.id, status: full.status < 500 }).toEqual({ operation: operation.id, status: true });
    }
  });

  it('should answer a wrong type and a null at every field of every operation with a 422 naming it', async () => {
    let sent = 0;
    for (const operation of operations) {
      const base = doc.sample(operation.schema, true);
      for (const field of doc.fields(operation)) {
        for (const mutation of doc.basicMutations(field, base)) {
          // `null` is "no body" for operations that take none.
          if (operation.noBody && mutation.kind === 'null') continue;
          check(mutation, operation, await send(operation.id, mutation.body, mutation.kind));
          sent++;
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
  });

  it('should refuse random invalid values at random fields: out of range, too long, control characters, unknown and prototype keys, deep nesting, oversized arrays', async () => {
    const fields: { field: Field; base: Json }[] = operations.flatMap((operation) => {
      const base = doc.sample(operation.schema, true);
      return doc.fields(operation).map((field) => ({ field, base }));
    });
    const cases = fc
      .constantFrom(...fields)
      .chain(({ field, base }) => doc.mutations(field, base).map((mutation) => ({ field, mutation })))
      .filter(({ field, mutation }) => !(field.operation.noBody && mutation.kind === 'null'));
    await fc.assert(
      fc.asyncProperty(cases, async ({ field, mutation }) => {
        const overLimit = (JSON.stringify(mutation.body)?.length ?? 0) > bodyLimitOf(field.operation.id);
        check(mutation, field.operation, await send(field.operation.id, mutation.body, mutation.kind), overLimit ? [413] : [422]);
      }),
      { seed: SEED, numRuns: 600, endOnFailure: true },
    );
  });

  it('should refuse bodies that are not objects, not JSON, not plain JSON or over the size limit', async () => {
    for (const operation of operations) {
      const base = JSON.stringify(doc.sample(operation.schema, false));
      const cases: [string, { data: string | Buffer; type?: string; encoding?: string }, number[]][] = [
        ['array', { data: '[]', type: 'application/json' }, [422]],
        ['string', { data: '"x"', type: 'application/json' }, [422]],
        ['number', { data: '1e400', type: 'application/json' }, [422]],
        ['boolean', { data: 'true', type: 'application/json' }, [422]],
        ['not JSON', { data: '{"a":', type: 'application/json' }, [400]],
        ['NUL byte', { data: '\u0000', type: 'application/json' }, [400]],
        ['text/plain', { data: base, type: 'text/plain' }, [415]],
        ['form', { data: 'a=1', type: 'application/x-www-form-urlencoded' }, [415]],
        ['xml', { data: '<a/>', type: 'application/xml' }, [415]],
        ['gzip', { data: gzipSync(base), type: 'application/json', encoding: 'gzip' }, [415]],
        ['deflate', { data: base, type: 'application/json', encoding: 'deflate' }, [415]],
        ['latin1', { data: Buffer.from(base, 'latin1'), type: 'application/json; charset=iso-8859-1' }, [415]],
        // superagent sends a Buffer under a JSON Content-Type as `{"type":"Buffer","data":[…bytes]}`: read as UTF-16 it is
        // garbage (400), unless its byte array is over 1,000 items (a sample of 500+ characters), which the structure check refuses first (422).
        ['utf-16 garbled', { data: Buffer.from(base, 'utf16le'), type: 'application/json; charset=utf-16' }, [400, 415, 422]],
        ['over the limit', { data: JSON.stringify({ x: 'a'.repeat(bodyLimitOf(operation.id)) }), type: 'application/json' }, [413]],
      ];
      if (!operation.noBody) cases.push(['null', { data: 'null', type: 'application/json' }, [422]]);
      for (const [kind, raw, allowed] of cases) {
        const mutation = { kind, body: undefined, expected: 'body' };
        check(mutation, operation, await send(operation.id, undefined, kind, raw), allowed);
      }
    }
  });

  it(`should refuse the largest bodies the limit admits within ${HUGE_BUDGET_MS} ms, without echoing them`, async () => {
    const budget = ctx.config.bodyLimitBytes - 1_000;
    for (const operation of operations) {
      const base = doc.sample(operation.schema, true);
      const fields = doc.fields(operation).map((field) => ({ field, schema: doc.resolve(field.schema) }));
      const array = fields.find((f) => f.schema.type === 'array');
      const text = fields.find((f) => f.schema.type === 'string');
      const [arrayPath, stringPath] = [array?.field.path ?? ['extra'], text?.field.path ?? ['extra']];
      // Elements of the array's own kind, as short as JSON allows, so 80,000 of them fit the limit.
      const itemType = array ? doc.resolve(array.schema.items!).type : 'integer';
      const element: Json = itemType === 'object' ? {} : itemType === 'string' ? '' : 0;
      const keys: Record<string, Json> = {};
      for (let i = 0; i < budget / 12; i++) keys[`k${i}`] = 0;
      const bodies: [string, Json, string][] = [
        ['80,000 elements', setAt(base, arrayPath, new Array(80_000).fill(element)), location(arrayPath)],
        ['a 250 kB string', setAt(base, stringPath, 'x'.repeat(budget)), location(stringPath)],
        ['20,000 unknown keys', keys, 'body'],
        ['100,000-deep nesting', setAt(base, arrayPath, DEEP), location(arrayPath)],
        ['20,000 keys at a field', setAt(base, ['extra'], keys), 'body.extra'],
      ];
      for (const [kind, body, expected] of bodies) {
        // JSON.stringify cannot write 100,000 levels: the placeholder is replaced by the nested text.
        const data = JSON.stringify(body).replace(JSON.stringify(DEEP), '['.repeat(100_000) + ']'.repeat(100_000));
        expect({ kind, admitted: data.length <= ctx.config.bodyLimitBytes }).toEqual({ kind, admitted: true });
        // The best of three: the test client shares this process (and the machine its cores), so one pause
        // of either is not the server's; an answer that grows with the input is slow every time.
        const times: number[] = [];
        for (let attempt = 0; attempt < 3 && !times.some((ms) => ms < HUGE_BUDGET_MS); attempt++) {
          const answer = await send(operation.id, undefined, kind, { data, type: 'application/json' });
          check({ kind, body: null, expected }, operation, answer, [422]);
          expect(answer.text.length).toBeLessThan(8_000);
          times.push(answer.ms);
        }
        huge.push(...times);
        expect({ operation: operation.id, kind, times: times.map(Math.round), fast: Math.min(...times) < HUGE_BUDGET_MS }).toEqual(
          expect.objectContaining({ fast: true }),
        );
      }
    }
  });

  it('should answer forged and garbled cursors with a 422 on body.cursor, never a 5xx', async () => {
    const paged = operations.filter((operation) => doc.resolve(operation.schema).properties?.cursor);
    expect(paged.map((operation) => operation.id).sort()).toEqual([
      'activity.listAccountFeed',
      'activity.listGlobalFeed',
      'admin.listAuditLog',
      'app.listOwners',
      'badge.listCheapest',
      'badge.listCrafters',
    ]);
    const part = fc.oneof(
      fc.constantFrom<Json>('2024-01-01T00:00:00.000Z', '99999-01-01T00:00:00.000Z', '2024-13-45T99:99:99.999Z', 'x', '', '\u0000'),
      fc.constantFrom<Json>(2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e308, 1.5, -1, 0, '9223372036854775808', '1e3', null, true, [], {}),
      fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>,
    );
    const cursor = fc.oneof(
      fc.array(part, { minLength: 0, maxLength: 3 }).map((key) => encodeCursor(key as (string | number)[])),
      fc.jsonValue({ maxDepth: 2 }).map((value) => Buffer.from(JSON.stringify(value)).toString('base64url')),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
      fc.constantFrom('', '====', 'a b', '%00', 'x'.repeat(201), '\u0000'),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paged), cursor, async (operation, forged) => {
        const body = withKey(doc.sample(operation.schema, false) as Record<string, Json>, 'cursor', forged);
        const answer = await send(operation.id, body, 'cursor');
        if (answer.status < 300) {
          // Only a two-part key of plausible types (three for badge.listCheapest: set cost, app, side) may pass, and then
          // it pages: never a 5xx either way.
          const key = safeDecode(forged);
          const parts = operation.id === 'badge.listCheapest' ? 3 : 2;
          expect({ operation: operation.id, forged, key, plausible: Array.isArray(key) && key.length === parts }).toEqual(
            expect.objectContaining({ plausible: true }),
          );
          return;
        }
        check({ kind: `cursor ${forged}`, body, expected: 'body.cursor' }, operation, answer, [422]);
      }),
      { seed: SEED, numRuns: 200, endOnFailure: true },
    );
  });

  it('should answer account.subscribe with a bad accountId or unknown query keys with a 422 naming them, before any stream', async () => {
    const queries: [string, string][] = [
      ['accountId=0x10', 'query.accountId'],
      ['accountId=1e3', 'query.accountId'],
      ['accountId=16abc', 'query.accountId'],
      ['accountId=-1', 'query.accountId'],
      ['accountId=2147483648', 'query.accountId'],
      ['accountId=99999999999999999999', 'query.accountId'],
      ['accountId=', 'query.accountId'],
      ['accountId=%201', 'query.accountId'],
      ['accountId=%00', 'query.accountId'],
      ['accountId=1&accountId=2', 'query.accountId'],
      ['', 'query.accountId'],
      [`accountId=${TRACKED_ACCOUNT}&__proto__=1`, 'query.__proto__'],
      [`accountId=${TRACKED_ACCOUNT}&constructor=1`, 'query.constructor'],
      [`accountId=${TRACKED_ACCOUNT}&access=1`, 'query.access'],
    ];
    for (const [query, expected] of queries) {
      const started = performance.now();
      const res = await ctx
        .http()
        .get(`/v1/account.subscribe?${query}`)
        .set('Authorization', `Bearer ${token}`)
        .set('Accept', 'text/event-stream')
        .timeout({ deadline: 5_000 });
      const answer = {
        status: res.status,
        type: String(res.headers['content-type']),
        body: res.body,
        ms: performance.now() - started,
        text: res.text,
      };
      const wrong = refusal(answer, expected);
      expect({ query, wrong }).toEqual({ query, wrong: null });
    }
  });
});

function safeDecode(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}
