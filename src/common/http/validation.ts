import { Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ErrorDetail, ProblemException, unprocessable } from '../problem/problem.exception';
import { RequestShapes, ShapeSchema } from './request-shape';

function childLocation(parent: string, property: string): string {
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

/** Flattens class-validator's tree into wire error details with locations like `body.id.steamId64`. */
export function flattenValidationErrors(errors: ValidationError[], parent = 'body'): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const location = childLocation(parent, error.property);
    for (const message of Object.values(error.constraints ?? {})) {
      details.push({ location, message, value: error.value });
    }
    details.push(...flattenValidationErrors(error.children ?? [], location));
  }
  return details;
}

/**
 * The request schemas of the OpenAPI document the app serves, loaded once at boot (`createHttpApp`): the
 * document is the contract, so what it states (sizes, widths, nullability, closed objects) is what is enforced.
 */
@Injectable()
export class RequestSchemas {
  private shapes?: RequestShapes;
  private schemas?: Record<string, ShapeSchema>;

  load(document: OpenAPIObject): void {
    this.schemas = (document.components?.schemas ?? {}) as Record<string, ShapeSchema>;
    this.shapes = new RequestShapes(this.schemas);
  }

  /** The component schemas, for a thread that checks bodies itself (JsonBodyPool). */
  components(): Record<string, ShapeSchema> {
    if (!this.schemas) throw new Error('RequestSchemas.load(document) was not called before the first request');
    return this.schemas;
  }

  get(): RequestShapes {
    if (!this.shapes) throw new Error('RequestSchemas.load(document) was not called before the first request');
    return this.shapes;
  }
}

/**
 * Bodies whose schema check already ran off the main thread (JsonBodyMiddleware, for the large upload body), with
 * its outcome: the pipe uses it instead of checking the body again.
 */
const checkedBodies = new WeakMap<object, { schema: string; problems: ErrorDetail[] }>();

export function markBodyChecked(body: object, schema: string, problems: ErrorDetail[]): void {
  checkedBodies.set(body, { schema, problems });
}

const invalid = (details: ErrorDetail[]) =>
  unprocessable(`The request has ${details.length} invalid field(s): ${details[0]?.location ?? 'body'}.`, details);

/**
 * The global pipe. The request's schema in the OpenAPI document is the one statement of its rules (each bound is
 * written once, in `@ApiProperty`), and RequestShapes is the one validator of everything the document states: the
 * raw body (or query) is checked against it, sizes before elements, so the cost is bounded whatever was sent.
 * Then class-transformer builds the DTO (`@Type`, `@Transform`) and class-validator checks only what the document
 * does not enforce: the few rules declared with class-validator decorators on a DTO (an e-mail address, unique
 * items); a DTO without any costs it a look-up. Both answer 422 with one entry per bad field. A missing body is
 * validated as `{}` so required fields are reported.
 */
@Injectable()
export class WireValidationPipe extends ValidationPipe {
  constructor(private readonly schemas: RequestSchemas) {
    super({
      // Unknown fields are the schema pass's (closed objects): no class-validator whitelist repeats it.
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => invalid(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: Parameters<ValidationPipe['transform']>[1]) {
    const name = metadata.metatype?.name;
    if ((metadata.type === 'body' || metadata.type === 'query') && name && this.toValidate(metadata)) {
      const shapes = this.schemas.get();
      if (!shapes.has(name)) throw new Error(`${name} is not a schema of the OpenAPI document; it cannot be validated`);
      if (metadata.type === 'body' && value === undefined) value = {};
      // Query strings carry text: decimal integers become numbers, anything else ("0x10", "1e3") stays text.
      if (metadata.type === 'query') value = shapes.coerceQuery(name, value);
      const checked = metadata.type === 'body' && typeof value === 'object' && value !== null ? checkedBodies.get(value) : undefined;
      const problems = checked?.schema === name ? checked.problems : shapes.check(name, value, metadata.type);
      if (problems.length) throw invalid(problems);
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      // Errors are located from `body`; a query or path parameter names its own part of the request.
      if (error instanceof ProblemException && metadata.type !== 'body') {
        for (const detail of error.problem.errors ?? [])
          detail.location = detail.location?.replace(/^body/, metadata.type === 'param' ? 'path' : metadata.type);
      }
      throw error;
    }
  }
}
