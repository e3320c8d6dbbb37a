import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, ProblemException, unprocessable } from '../problem/problem.exception';

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
 * The global pipe: unknown fields and every constraint violation are a 422 listing each problem; a missing
 * body is validated as `{}` so required fields are reported rather than skipped.
 */
export class WireValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => {
        const details = flattenValidationErrors(errors);
        return unprocessable(`The request has ${details.length} invalid field(s): ${details[0]?.location ?? 'body'}.`, details);
      },
    });
  }

  override async transform(value: unknown, metadata: Parameters<ValidationPipe['transform']>[1]) {
    if (metadata.type === 'body' && (value === undefined || value === null)) value = {};
    if (metadata.type === 'body' && (typeof value !== 'object' || Array.isArray(value))) {
      throw unprocessable('The request body must be a JSON object.', [{ location: 'body', message: 'expected an object', value }]);
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
