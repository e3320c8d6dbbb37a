import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Validates an answer against the success response schema the checked-in `openapi.json` gives its operation, as a
 * client generated from that document with response validation on would: required fields present, no `null` where
 * the schema is not nullable, enum values and types as documented (OpenAPI 3.0 `nullable` is an Ajv keyword).
 */
type Document = { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: object };

/**
 * OpenAPI 3.0 `nullable` beside `allOf: [$ref]` (how @nestjs/swagger writes a nullable reference) means "this or
 * null" to generated clients, but a JSON Schema validator would still apply the allOf to a null: spell it anyOf.
 */
function nullableReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableReferences);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, nullableReferences(value)])) as Record<string, unknown>;
  if (out.nullable !== true || !('allOf' in out || 'oneOf' in out || 'anyOf' in out)) return out;
  const { nullable: _nullable, ...rest } = out;
  return { anyOf: [rest, { type: 'null' }] };
}

const document = nullableReferences(JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8'))) as Document;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
const compiled = new Map<string, ValidateFunction>();

function validatorFor(operation: string, method: string): ValidateFunction {
  const key = `${method} ${operation}`;
  let validate = compiled.get(key);
  if (!validate) {
    const responses = document.paths[`/v1/${operation}`]?.[method]?.responses ?? {};
    const success = Object.keys(responses).find((status) => status.startsWith('2'));
    const schema = success ? responses[success].content?.['application/json']?.schema : undefined;
    if (!schema) throw new Error(`${key}: the document gives no JSON success answer`);
    validate = ajv.compile({ ...schema, components: document.components });
    compiled.set(key, validate);
  }
  return validate;
}

/** The schema errors of `body` as the answer of `operation` (empty when it validates): `expect(...).toEqual([])`. */
export function wireAnswerErrors(operation: string, body: unknown, method: 'post' | 'get' = 'post'): string[] {
  const validate = validatorFor(operation, method);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${operation}${error.instancePath} ${error.message}`);
}

/**
 * A supertest assertion (`request.expect(matchesDocument(op))`): a 2xx JSON answer must validate against the
 * document; other answers (problems, 204s) pass through to the spec's own expectations.
 */
export const matchesDocument =
  (operation: string, method: 'post' | 'get' = 'post') =>
  (res: { status: number; type: string; body: unknown }): void => {
    if (res.status < 200 || res.status >= 300 || res.status === 204 || !/json/.test(res.type)) return;
    const errors = wireAnswerErrors(operation, res.body, method);
    if (errors.length > 0) throw new Error(`answer outside the documented schema:\n${errors.join('\n')}`);
  };
