import type { ErrorDetail } from '../problem/problem.exception';

/** The subset of an OpenAPI 3.0 schema object that request schemas use. */
export interface ShapeSchema {
  $ref?: string;
  allOf?: ShapeSchema[];
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  nullable?: boolean;
  properties?: Record<string, ShapeSchema>;
  required?: string[];
  additionalProperties?: boolean | ShapeSchema;
  maxProperties?: number;
  items?: ShapeSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
}

/** Integer widths of the wire reference. int64 stops at 2^53 − 1: a JSON number past it is not read exactly. */
export const INTEGER_BOUNDS: Record<string, [number, number]> = {
  int32: [-2147483648, 2147483647],
  int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
/** A request stops being inspected after this many problems: enough to fix a request, bounded for a hostile one. */
export const MAX_REPORTED_PROBLEMS = 20;
/** Control characters (C0, DEL, C1): never part of a name, a search or an id, and NUL breaks PostgreSQL text. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
/** Half of a surrogate pair without the other half: not text, and it cannot be stored as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Object keys longer than this are shortened in locations, so a 200 kB key is not echoed back. */
const MAX_KEY_IN_LOCATION = 64;

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/**
 * Checks a request value against its OpenAPI schema before anything else looks at it: the shape, the size of
 * every string and array, integer widths, nullability, enums, patterns, control characters and unknown keys
 * (`__proto__`, `constructor` and `prototype` included). Sizes are compared before elements are visited, the
 * walk only goes as deep as the schema does, and it stops after MAX_REPORTED_PROBLEMS, so its cost is bounded
 * by the schema, not by the input: an 80,000-element array is refused by its length alone.
 */
export class RequestShapes {
  private readonly patterns = new Map<string, RegExp>();

  constructor(private readonly components: Record<string, ShapeSchema>) {}

  has(name: string): boolean {
    return Object.hasOwn(this.components, name);
  }

  /** The problems of `value` as the component schema `name`, located from `root` (`body`, `query`). */
  check(name: string, value: unknown, root: string): ErrorDetail[] {
    const problems: ErrorDetail[] = [];
    this.visit({ $ref: `#/components/schemas/${name}` }, value, root, problems);
    return problems;
  }

  /**
   * A query object with the values of integer and boolean properties read from their text: only plain
   * decimals (`16`, `-3`) and `true`/`false`. `0x10`, `1e3`, ` 16` and repeated parameters stay as sent, so the
   * check names them; unknown keys are kept for the check to refuse.
   */
  coerceQuery(name: string, query: unknown): unknown {
    if (typeof query !== 'object' || query === null) return query;
    const properties = this.resolve({ $ref: `#/components/schemas/${name}` }).properties ?? {};
    const coerced: Record<string, unknown> = {};
    for (const key in query) {
      let value = (query as Record<string, unknown>)[key];
      const type = Object.hasOwn(properties, key) ? this.resolve(properties[key]).type : undefined;
      if (typeof value === 'string') {
        if (type === 'integer' && /^-?\d{1,16}$/.test(value)) value = Number(value);
        else if (type === 'boolean' && (value === 'true' || value === 'false')) value = value === 'true';
      }
      Object.defineProperty(coerced, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return coerced;
  }

  private visit(node: ShapeSchema, value: unknown, location: string, problems: ErrorDetail[]): void {
    if (problems.length >= MAX_REPORTED_PROBLEMS) return;
    const schema = this.resolve(node);
    const report = (message: string) => problems.push({ location, message, value });
    if (value === null) {
      if (!schema.nullable) report('must not be null');
      return;
    }
    switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
      case 'object':
        return this.visitObject(schema, value, location, problems);
      case 'array':
        return this.visitArray(schema, value, location, problems);
      case 'string':
        if (typeof value !== 'string') return void report('must be a string');
        return void this.stringProblem(schema, value, report);
      case 'integer':
        if (typeof value !== 'number' || !Number.isInteger(value)) return void report('must be an integer');
        return void this.rangeProblem(schema, value, report);
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) return void report('must be a number');
        return void this.rangeProblem(schema, value, report);
      case 'boolean':
        if (typeof value !== 'boolean') report('must be a boolean');
        return;
      default:
        // A schema this checker cannot read must not let anything through unchecked.
        report('is not accepted here');
    }
  }

  private visitObject(schema: ShapeSchema, value: unknown, location: string, problems: ErrorDetail[]): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ location, message: 'must be an object', value });
      return;
    }
    const properties = schema.properties ?? {};
    const record = value as Record<string, unknown>;
    if (schema.maxProperties !== undefined) {
      let count = 0;
      for (const key in record) if (Object.hasOwn(record, key) && ++count > schema.maxProperties) break;
      if (count > schema.maxProperties) {
        problems.push({ location, message: `must have at most ${schema.maxProperties} field(s)`, value });
        return;
      }
    }
    // for…in stops early; JSON.parse makes `__proto__` an own, enumerable key like any other.
    for (const key in record) {
      if (problems.length >= MAX_REPORTED_PROBLEMS) return;
      const child = childLocation(location, key);
      if (Object.hasOwn(properties, key)) this.visit(properties[key], record[key], child, problems);
      else if (typeof schema.additionalProperties === 'object') this.visit(schema.additionalProperties, record[key], child, problems);
      else problems.push({ location: child, message: `unknown field "${clipKey(key)}"`, value: record[key] });
    }
    for (const key of schema.required ?? []) {
      if (problems.length >= MAX_REPORTED_PROBLEMS) return;
      if (!Object.hasOwn(record, key)) problems.push({ location: childLocation(location, key), message: 'is required' });
    }
  }

  private visitArray(schema: ShapeSchema, value: unknown, location: string, problems: ErrorDetail[]): void {
    if (!Array.isArray(value)) {
      problems.push({ location, message: 'must be an array', value });
      return;
    }
    // The length is judged before any element is looked at.
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      problems.push({ location, message: `must have at most ${schema.maxItems} items (has ${value.length})`, value });
      return;
    }
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      problems.push({ location, message: `must have at least ${schema.minItems} item(s)`, value });
      return;
    }
    if (!schema.items) return;
    for (let i = 0; i < value.length && problems.length < MAX_REPORTED_PROBLEMS; i++) {
      this.visit(schema.items, value[i], `${location}[${i}]`, problems);
    }
  }

  private stringProblem(schema: ShapeSchema, value: string, report: (message: string) => void): void {
    // JSON Schema lengths count code points; the UTF-16 length bounds them from above and below.
    if (schema.maxLength !== undefined && value.length > schema.maxLength && codePoints(value, schema.maxLength) > schema.maxLength) {
      return report(`must be at most ${schema.maxLength} characters long`);
    }
    if (schema.minLength !== undefined && codePoints(value, schema.minLength) < schema.minLength) {
      return report(`must be at least ${schema.minLength} characters long`);
    }
    if (CONTROL_CHARACTERS.test(value)) return report('must not contain control characters');
    if (LONE_SURROGATE.test(value)) return report('must be well-formed Unicode text');
    if (schema.enum && !schema.enum.includes(value)) return report(`must be one of: ${schema.enum.join(', ')}`);
    if (schema.pattern && !this.pattern(schema.pattern).test(value)) return report(`must match ${schema.pattern}`);
  }

  private rangeProblem(schema: ShapeSchema, value: number, report: (message: string) => void): void {
    const [low, high] =
      schema.type === 'integer' ? (INTEGER_BOUNDS[schema.format ?? 'int64'] ?? INTEGER_BOUNDS.int64) : [-Infinity, Infinity];
    const minimum = Math.max(schema.minimum ?? -Infinity, low);
    const maximum = Math.min(schema.maximum ?? Infinity, high);
    if (value < minimum) report(`must not be less than ${minimum}`);
    else if (value > maximum) report(`must not be greater than ${maximum}`);
    else if (schema.enum && !schema.enum.includes(value)) report(`must be one of: ${schema.enum.join(', ')}`);
  }

  /** `$ref` and the `allOf: [$ref]` + `nullable` wrapper that Swagger emits for a nullable nested object. */
  private resolve(node: ShapeSchema): ShapeSchema {
    let schema = node;
    let nullable = node.nullable;
    for (let hops = 0; hops < 16; hops++) {
      if (schema.$ref) {
        const name = COMPONENT_REF.exec(schema.$ref)?.[1];
        if (!name || !Object.hasOwn(this.components, name)) throw new Error(`request schema ${schema.$ref} is not in the document`);
        schema = this.components[name];
      } else if (schema.allOf?.length === 1) {
        schema = schema.allOf[0];
      } else {
        break;
      }
      nullable = nullable || schema.nullable;
    }
    return nullable === schema.nullable ? schema : { ...schema, nullable };
  }

  private pattern(source: string): RegExp {
    let regexp = this.patterns.get(source);
    if (!regexp) this.patterns.set(source, (regexp = new RegExp(source, 'u')));
    return regexp;
  }
}

/** `body.a.b`; a key that is not a plain name is quoted (`body["a b"]`), a long one shortened. */
export function childLocation(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) && key.length <= MAX_KEY_IN_LOCATION
    ? `${parent}.${key}`
    : `${parent}[${JSON.stringify(clipKey(key))}]`;
}

function clipKey(key: string): string {
  return key.length <= MAX_KEY_IN_LOCATION ? key : `${key.slice(0, MAX_KEY_IN_LOCATION)}…`;
}

/** Code points of `value`, counting no further than `limit + 1`. */
function codePoints(value: string, limit: number): number {
  let count = 0;
  for (let i = 0; i < value.length && count <= limit; i++, count++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) i++;
  }
  return count;
}
