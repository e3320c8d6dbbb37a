import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { jsonLimitBreach, MAX_JSON_DEPTH } from '../../src/common/http/json-depth';
import { RequestShapes, ShapeSchema } from '../../src/common/http/request-shape';
import { clipProblems, clipValue } from '../../src/common/problem/clip-value';
import { decodeCursor, encodeCursor } from '../../src/common/wire/cursor';

const components: Record<string, ShapeSchema> = {
  Body: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
      count: { type: 'integer', format: 'int32', minimum: 0, maximum: 100 },
      big: { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      note: { type: 'string', maxLength: 10, nullable: true },
      ids: { type: 'array', maxItems: 3, items: { type: 'integer', format: 'int32', minimum: 0, maximum: 9 } },
      child: { allOf: [{ $ref: '#/components/schemas/Child' }], nullable: true },
      children: { type: 'array', maxItems: 2, items: { $ref: '#/components/schemas/Child' } },
    },
  },
  Child: { type: 'object', required: ['on'], properties: { on: { type: 'boolean' } } },
  Query: { type: 'object', required: ['id'], properties: { id: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 } } },
};
const shapes = new RequestShapes(components);
const problems = (value: unknown) => shapes.check('Body', value, 'body').map((p) => `${p.location}: ${p.message}`);
const withOwn = (key: string, value: unknown) => JSON.parse(`{"name":"ab",${JSON.stringify(key)}:${JSON.stringify(value)}}`) as unknown;

describe('RequestShapes: a request against its OpenAPI schema', () => {
  it('should accept a valid body, nulls where the schema allows them', () => {
    expect(problems({ name: 'ab', count: 3, big: 2 ** 40, note: null, ids: [1, 2], child: null, children: [{ on: true }] })).toEqual([]);
  });

  it('should name each bad field once, with its location', () => {
    expect(problems({ name: 'AB', count: 101, note: 'x'.repeat(11), ids: [1, 'x'], child: {}, children: [[]] })).toEqual([
      'body.name: must match ^[a-z]+$',
      'body.count: must not be greater than 100',
      'body.note: must be at most 10 characters long',
      'body.ids[1]: must be an integer',
      'body.child.on: is required',
      'body.children[0]: must be an object',
    ]);
    expect(problems({})).toEqual(['body.name: is required']);
    expect(problems({ name: null })).toEqual(['body.name: must not be null']);
  });

  it('should hold integers to their wire width, and 1e308 or 2^53 are not int64', () => {
    expect(problems({ name: 'ab', big: 2 ** 53 })).toEqual(['body.big: must not be greater than 9007199254740991']);
    expect(problems({ name: 'ab', big: 1e308 })).toHaveLength(1);
    expect(problems({ name: 'ab', count: 1.5 })).toEqual(['body.count: must be an integer']);
  });

  it.each(['0000', '0007', '001f', '007f', '0085', 'd800', 'dc00'])('should refuse U+%s in text', (code) => {
    const bad = String.fromCharCode(parseInt(code, 16));
    expect(problems({ name: 'ab', note: `x${bad}` })).toHaveLength(1);
  });

  it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])('should refuse the key %s as unknown', (key) => {
    expect(problems(withOwn(key, 1))).toEqual([`body.${key}: unknown field "${key}"`]);
  });

  it('should quote and shorten keys that are not plain names', () => {
    expect(problems(withOwn('a b', 1))).toEqual(['body["a b"]: unknown field "a b"']);
    const [problem] = shapes.check('Body', withOwn('k'.repeat(10_000), 1), 'body');
    expect(problem.location!.length).toBeLessThan(100);
  });

  it('should refuse an oversized array by its length, without visiting an element', () => {
    const huge = new Array(80_000).fill('not an integer');
    expect(problems({ name: 'ab', ids: huge })).toEqual(['body.ids: must have at most 3 items (has 80000)']);
  });

  it('should stop after 20 problems however many there are', () => {
    const body = JSON.parse(`{${Array.from({ length: 5_000 }, (_, i) => `"k${i}":1`).join(',')}}`) as unknown;
    expect(shapes.check('Body', body, 'body')).toHaveLength(20);
  });

  it('should read query integers as plain decimals only', () => {
    const query = (id: string | string[]) => shapes.check('Query', shapes.coerceQuery('Query', { id }), 'query');
    expect(query('16')).toEqual([]);
    for (const bad of ['0x10', '1e3', '16abc', ' 16', '', '-1', '2147483648', ['1', '2']]) {
      expect({ bad, problems: query(bad).map((p) => p.location) }).toEqual({ bad, problems: ['query.id'] });
    }
  });

  it('should never throw, whatever JSON it is given (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const found = shapes.check('Body', value, 'body');
        expect(found.length).toBeLessThanOrEqual(20);
        for (const problem of found) expect(problem.location).toMatch(/^body/);
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});

describe('jsonLimitBreach: structure limits on the raw body', () => {
  const breach = (text: string) => jsonLimitBreach(Buffer.from(text));

  it('should pass ordinary bodies, strings full of brackets included', () => {
    expect(breach('{"a":[1,2,{"b":"[[[[{{{{\\"]]]"}],"c":{}}')).toBeNull();
    expect(breach(JSON.stringify({ ids: new Array(1000).fill(1) }))).toBeNull();
  });

  it('should name the first value nested too deeply', () => {
    const deep = `{"filters":{"appIds":[1,${'['.repeat(100_000)}${']'.repeat(100_000)}]}}`;
    expect(breach(deep)).toEqual({
      location: expect.stringMatching(/^body\.filters\.appIds\[1\](\[0\])+/),
      message: `nests deeper than ${MAX_JSON_DEPTH} levels`,
    });
  });

  it('should name an array or object too large to be valid', () => {
    expect(breach(JSON.stringify({ exclude: new Array(80_000).fill({}) }))).toEqual({
      location: 'body.exclude',
      message: 'has more than 1000 items',
    });
    const keys = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, 0]));
    expect(breach(JSON.stringify({ 'a b': keys }))).toEqual({ location: 'body["a b"]', message: 'has more than 100 fields' });
  });

  it('should refuse the largest bodies in about a millisecond, not in time that grows with them', () => {
    const bodies = [
      JSON.stringify({ exclude: new Array(80_000).fill({}) }),
      '['.repeat(130_000) + ']'.repeat(130_000),
      JSON.stringify({ search: 'x'.repeat(250_000) }),
    ].map((text) => Buffer.from(text));
    for (const body of bodies) {
      const times = Array.from({ length: 5 }, () => {
        const started = performance.now();
        jsonLimitBreach(body);
        return performance.now() - started;
      });
      expect(Math.min(...times)).toBeLessThan(10);
    }
  });
});

describe('problem values are echoed shortened', () => {
  it('should cut long strings, big arrays, big and deep objects', () => {
    expect(clipValue('x'.repeat(1_000))).toBe(`${'x'.repeat(64)}… (1000 characters)`);
    expect(clipValue(new Array(80_000).fill(1))).toEqual([1, 1, 1, 1, 1, '… 79995 more']);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(JSON.stringify(clipValue(deep))).toBe('[["[array of 1]"]]');
    expect(JSON.stringify(clipValue(JSON.parse('{"__proto__":{"a":1}}')))).toBe('{"__proto__":{"a":1}}');
  });

  it('should list at most 20 problems', () => {
    expect(clipProblems(Array.from({ length: 80_000 }, (_, i) => ({ location: `body.k${i}`, message: 'x' })))).toHaveLength(20);
  });
});

describe('cursors', () => {
  it('should give back the key of a cursor it issued', () => {
    const cursor = encodeCursor(['2024-01-01T00:00:00.000Z', 42]);
    expect(decodeCursor(cursor, ['timestamp', 'int32'])).toEqual(['2024-01-01T00:00:00.000Z', 42]);
    expect(decodeCursor(encodeCursor(['2024-01-01T00:00:00.000Z', '9007199254740993']), ['timestamp', 'int64'])[1]).toBe(
      '9007199254740993',
    );
  });

  it.each([
    ['2024-13-45T99:99:99.999Z', 1],
    ['2024-02-30T00:00:00.000Z', 1],
    ['99999-01-01T00:00:00.000Z', 1],
    ['2024-01-01T00:00:00.000Z', 2 ** 31],
    ['2024-01-01T00:00:00.000Z', 1.5],
    ['2024-01-01T00:00:00.000Z', '1'],
    [1, 1],
    [null, 1],
  ])('should refuse the forged key [%j, %j] with a 422 on body.cursor', (...key) => {
    expect(() => decodeCursor(encodeCursor(key as (string | number)[]), ['timestamp', 'int32'])).toThrow(
      expect.objectContaining({ problem: { errors: [expect.objectContaining({ location: 'body.cursor' })] } }),
    );
  });

  it('should refuse any text that is not one of its cursors, never throwing anything else (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        try {
          decodeCursor(text, ['timestamp', 'int64']);
        } catch (error) {
          expect(error).toMatchObject({ status: 422 });
        }
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
