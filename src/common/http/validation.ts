import { Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ErrorDetail, ProblemException, unprocessable } from '../problem/problem.exception';
import { RequestShapes, ShapeSchema } from './request-shape';
import { memoizeValidationMetadata } from './validation-metadata-memo';

function childLocation(parent: string, property: string): string {
  return /^\d+$/.test(property) ? `${parent}[${property}]` : `${parent}.${property}`;
}

/** Flattens class-validator's tree into wire error details with locations like `body.id.steamId64`. */
export function flattenValidationErrors(errors: ValidationError[], parent = 'body'): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const location = childLocation(parent, error.property);
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      details.push({
        location,
        message: constraint === 'whitelistValidation' ? `unknown field "${error.property}"` : message,
        value: error.value,
      });
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
 * The global pipe, in two passes. First the raw body (or query) is checked against the operation's schema in
 * the OpenAPI document (RequestShapes): sizes before elements, so the cost is bounded whatever was sent. Only
 * a request of the right shape reaches class-transformer and class-validator (whitelist + forbid unknown),
 * which then never sees a huge array, a prototype key or a `null` where the wire allows none. Both passes
 * answer 422 with one entry per bad field. A missing body is validated as `{}` so required fields are reported.
 */
@Injectable()
export class WireValidationPipe extends ValidationPipe {
  constructor(private readonly schemas: RequestSchemas) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => invalid(flattenValidationErrors(errors)),
    });
    // Built once the app's modules, and so all their DTO classes, are loaded (validation-metadata-memo.ts).
    memoizeValidationMetadata();
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
