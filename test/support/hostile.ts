import fc from 'fast-check';

/**
 * Hostile requests derived from the request schemas of the app's own OpenAPI document: a valid body per
 * operation, the fields it reaches, and mutations that make one field invalid, each with the `location` a 422
 * must name. Used by test/e2e/hostile-input.e2e.spec.ts.
 */
export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  maxItems?: number;
  minItems?: number;
  maxLength?: number;
  minLength?: number;
  maxProperties?: number;
  pattern?: string;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  example?: unknown;
  default?: unknown;
}

export type Step = string | number;
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface Operation {
  id: string;
  /** The body's schema; `{type: object, maxProperties: 0}` for operations that take none. */
  schema: Schema;
  noBody: boolean;
}

export interface Field {
  operation: Operation;
  path: Step[];
  schema: Schema;
}

export interface Mutation {
  kind: string;
  body: Json | undefined;
  /** The location a 422 must name (itself or a part of it). */
  expected: string;
}

const INT_WIDTH: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
/** Strings tried, in order, for a string field without a usable example. */
const STRING_CANDIDATES = ['abc', '5', 'bdg_1', '76561197960265729', 'AAAA', 'a'];
/** The tracked account every account selector of a valid body names. */
export const TRACKED_ACCOUNT = 4242;

export class RequestDocument {
  constructor(private readonly document: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } }) {}

  operations(): Operation[] {
    const operations: Operation[] = [];
    for (const [path, item] of Object.entries(this.document.paths)) {
      const schema: Schema | undefined = item.post?.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      operations.push({ id: path.replace('/v1/', ''), schema, noBody: !schema.$ref });
    }
    return operations;
  }

  resolve(node: Schema): Schema {
    let schema = node;
    let nullable = node.nullable ?? false;
    while (schema.$ref || schema.allOf?.length === 1) {
      schema = schema.$ref ? this.document.components.schemas[schema.$ref.split('/').pop()!] : schema.allOf![0];
      nullable = nullable || (schema.nullable ?? false);
    }
    return { ...schema, nullable };
  }

  /** A valid value: required fields only (`full`: every field), an account selector naming the tracked account. */
  sample(node: Schema, full: boolean, key?: string): Json {
    const schema = this.resolve(node);
    switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
      case 'object': {
        const out: Record<string, Json> = {};
        const properties = schema.properties ?? {};
        for (const name of Object.keys(properties)) {
          if (full || schema.required?.includes(name)) out[name] = this.sample(properties[name], full, name);
        }
        // An account selector must name an account (an empty one is a 422 of its own).
        if (!full && properties.id && properties.vanity) out.id = { accountId: TRACKED_ACCOUNT };
        return out;
      }
      case 'array':
        return [this.sample(schema.items!, full)];
      case 'integer': {
        if (key === 'accountId') return TRACKED_ACCOUNT;
        const [low, high] = bounds(schema);
        const wanted = typeof schema.example === 'number' ? schema.example : typeof schema.default === 'number' ? schema.default : 1;
        return Math.min(Math.max(wanted, low), high);
      }
      case 'number':
        return 1;
      case 'boolean':
        return false;
      case 'string': {
        // The documented example when it is one of the values (it names the case an example body can run), else the first.
        if (schema.enum) return (schema.enum.includes(schema.example) ? schema.example : schema.enum[0]) as string;
        const candidates = typeof schema.example === 'string' ? [schema.example, ...STRING_CANDIDATES] : STRING_CANDIDATES;
        const found = candidates.find((text) => validString(schema, text));
        if (found === undefined) throw new Error(`no sample string for ${JSON.stringify(schema)}`);
        return found;
      }
      default:
        throw new Error(`cannot sample ${JSON.stringify(schema)}`);
    }
  }

  /** Every field a full body of the operation reaches (arrays through their first element), the body itself first. */
  fields(operation: Operation): Field[] {
    const fields: Field[] = [];
    const walk = (node: Schema, path: Step[]) => {
      fields.push({ operation, path, schema: node });
      const schema = this.resolve(node);
      for (const [name, child] of Object.entries(schema.properties ?? {})) walk(child, [...path, name]);
      if (schema.type === 'array' && schema.items) walk(schema.items, [...path, 0]);
    };
    walk(operation.schema, []);
    return fields;
  }

  /** The deterministic part: a wrong JSON type and a `null` at every field. */
  basicMutations(field: Field, base: Json): Mutation[] {
    const schema = this.resolve(field.schema);
    const at = (value: Json, kind: string) => ({ kind, body: setAt(base, field.path, value), expected: location(field.path) });
    const mutations = wrongTypes(schema).map((value) => at(value, `wrong type ${JSON.stringify(value)}`));
    if (!schema.nullable) mutations.push(at(null, 'null'));
    return mutations;
  }

  /** Every way this field can be made invalid, as a fast-check arbitrary of mutations of `base`. */
  mutations(field: Field, base: Json): fc.Arbitrary<Mutation> {
    const schema = this.resolve(field.schema);
    const here = location(field.path);
    const at = (kind: string, value: Json, expected = here): Mutation => ({ kind, body: setAt(base, field.path, value), expected });
    const current = getAt(base, field.path);
    const options: fc.Arbitrary<Mutation>[] = [
      fc.constantFrom(...wrongTypes(schema)).map((value) => at(`wrong type ${JSON.stringify(value)}`, value)),
      fc.integer({ min: 33, max: 60 }).map((depth) => at(`nested ${depth} deep`, nest(depth))),
    ];
    if (!schema.nullable) options.push(fc.constant(at('null', null)));
    if (schema.type === 'integer') {
      const [low, high] = bounds(schema);
      const outside = [low - 1, high + 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e308, -1e308].filter((n) => n < low || n > high);
      options.push(fc.constantFrom(...outside).map((n) => at(`out of range ${n}`, n)));
      options.push(fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }).map((n) => at(`fraction ${n}`, n)));
    }
    if (schema.type === 'string' && typeof current === 'string') {
      const bad = fc.constantFrom('\u0000', '\u0001', '\u001f', '\u007f', '\u0085', '\ud800', '\udfff');
      options.push(
        fc
          .tuple(bad, fc.nat({ max: current.length }))
          .map(([c, i]) => at(`control ${escape(c)}`, current.slice(0, i) + c + current.slice(i))),
      );
      if (schema.maxLength !== undefined) {
        const max = schema.maxLength;
        options.push(fc.constantFrom(max + 1, max + 50, 100_000).map((n) => at(`${n} characters`, 'a'.repeat(n))));
      }
      if (schema.enum) options.push(fc.constant(at('not in enum', 'nope')));
      if (schema.pattern) options.push(fc.constantFrom('a b', '-', '%', '..').map((text) => at(`pattern miss ${text}`, text)));
    }
    if (schema.type === 'array' && Array.isArray(current)) {
      const element = current[0];
      if (schema.maxItems !== undefined) {
        const count = schema.maxItems + 1;
        options.push(
          fc.constant(
            at(
              `${count} items`,
              Array.from({ length: count }, () => element),
            ),
          ),
        );
      }
      options.push(fc.constant(at('80,000 items', new Array(80_000).fill(element))));
      options.push(fc.constant(at('nested array', [current], `${here}[0]`)));
      const items = this.resolve(schema.items!);
      if (items.required?.length) options.push(fc.constant(at('empty object item', [{}], `${here}[0]`)));
    }
    if (schema.type === 'object' || schema.properties) {
      const known = Object.keys(schema.properties ?? {});
      const record = (current ?? {}) as Record<string, Json>;
      const keys = fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '$ref'),
        fc.string({ minLength: 1, maxLength: 12 }),
      );
      options.push(
        fc
          .tuple(keys, fc.jsonValue({ maxDepth: 2 }))
          .filter(([key]) => !known.includes(key) && key !== '$schema')
          .map(([key, value]) =>
            at(`unknown key ${JSON.stringify(key)}`, withKey(record, key, value as Json), location([...field.path, key])),
          ),
      );
      for (const name of schema.required ?? []) {
        const rest = Object.fromEntries(Object.entries(record).filter(([key]) => key !== name));
        options.push(fc.constant(at(`missing ${name}`, rest, location([...field.path, name]))));
      }
    }
    return fc.oneof(...options);
  }
}

/** `body.a.b[0]`, as the service writes locations; keys that are not plain names are quoted. */
export function location(path: Step[], root = 'body'): string {
  return path.reduce<string>(
    (at, step) =>
      typeof step === 'number'
        ? `${at}[${step}]`
        : /^[A-Za-z_$][\w$]*$/.test(step) && step.length <= 64
          ? `${at}.${step}`
          : `${at}[${JSON.stringify(step.length <= 64 ? step : `${step.slice(0, 64)}…`)}]`,
    root,
  );
}

/** Whether a problem's location names `expected` or a part of it. */
export function names(actual: unknown, expected: string): boolean {
  return typeof actual === 'string' && (actual === expected || actual.startsWith(`${expected}.`) || actual.startsWith(`${expected}[`));
}

export function setAt(body: Json, path: Step[], value: Json): Json {
  if (!path.length) return value;
  const [step, ...rest] = path;
  if (Array.isArray(body)) return body.map((item, i) => (i === step ? setAt(item, rest, value) : item));
  return withKey(body as Record<string, Json>, step as string, setAt((body as Record<string, Json>)[step], rest, value));
}

export function getAt(body: Json | undefined, path: Step[]): Json | undefined {
  return path.reduce<Json | undefined>((at, step) => (at as Record<string | number, Json> | undefined)?.[step], body);
}

/** A copy with `key` set as an own data property, `__proto__` included (JSON.stringify then sends it). */
export function withKey(record: Record<string, Json>, key: string, value: Json): Record<string, Json> {
  const copy: Record<string, Json> = {};
  for (const [name, item] of Object.entries(record)) Object.defineProperty(copy, name, { value: item, enumerable: true, writable: true });
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true });
  return copy;
}

export function nest(depth: number): Json {
  let value: Json = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function bounds(schema: Schema): [number, number] {
  const [low, high] = INT_WIDTH[schema.format ?? 'int64'] ?? INT_WIDTH.int64;
  return [Math.max(schema.minimum ?? low, low), Math.min(schema.maximum ?? high, high)];
}

function wrongTypes(schema: Schema): Json[] {
  const all: Record<string, Json[]> = {
    integer: ['1', true, 1.5, [], {}],
    number: ['1', true, [], {}],
    string: [1, true, [], {}],
    boolean: ['true', 0, [], {}],
    array: ['x', 1, true, {}],
    object: ['x', 1, true, []],
  };
  return all[schema.type ?? 'object'] ?? [];
}

function validString(schema: Schema, text: string): boolean {
  return (
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Infinity) &&
    (!schema.pattern || new RegExp(schema.pattern, 'u').test(text))
  );
}

function escape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
