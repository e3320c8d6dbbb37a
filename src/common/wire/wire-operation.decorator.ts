import { applyDecorators, HttpCode, Post, SetMetadata, Sse, Type, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Auth, AuthPolicy } from '../../auth/auth.decorator';
import { ProblemDetailsDto } from '../problem/problem-details.dto';
import { EmptyBodyInterceptor } from './empty-body.interceptor';

export const WIRE_SCHEMA = 'wire:schema';

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request (invalid JSON)',
  401: 'Credential missing, invalid or of the wrong kind',
  403: 'Authenticated but not allowed',
  404: 'The referenced resource is unknown',
  409: 'Conflict',
  413: 'The request body is larger than the operation accepts',
  415: 'The request body is not JSON, or is compressed',
  422: 'Validation failure',
  429: 'Rate limited',
  500: 'Internal error',
  503: 'A backing service is temporarily unavailable',
};

export interface WireOperationOptions {
  /** Wire operation id, also the path: `POST /v1/<operationId>`. */
  operationId: string;
  summary: string;
  auth: AuthPolicy;
  /** Response DTO; its class name is the wire schema name used for `$schema`. Omit for a 204. */
  response?: Type<unknown>;
  /** A bare response (a map or an array): no wrapper and no `$schema`; given as its JSON Schema. */
  bareResponse?: SchemaObject;
  /** DTO classes the bare response refers to by `$ref`. */
  extraModels?: Type<unknown>[];
  /** Error statuses the wire reference lists for the operation. */
  errors: number[];
  /** The operation takes no body: anything but nothing or `{}` is a 422. */
  noBody?: boolean;
  description?: string;
}

/**
 * Declares one wire operation: route, status, credential policy, `$schema` name and the OpenAPI entry, so a
 * controller method carries its whole contract in one place and delegates the rest.
 */
export function WireOperation(options: WireOperationOptions) {
  const decorators = [
    Post(options.operationId),
    HttpCode(options.response || options.bareResponse ? 200 : 204),
    ...contract(options, OPERATION_TRANSPORT_ERRORS),
  ];
  if (options.bareResponse) {
    decorators.push(ApiExtraModels(...(options.extraModels ?? [])), ApiOkResponse({ schema: options.bareResponse }));
  } else if (options.response) {
    decorators.push(ApiOkResponse({ type: options.response }), SetMetadata(WIRE_SCHEMA, options.response.name));
  } else {
    decorators.push(ApiNoContentResponse({ description: 'Accepted; no body.' }));
  }
  if (options.noBody) {
    decorators.push(UseInterceptors(EmptyBodyInterceptor), ApiBody({ required: false, schema: { type: 'object', maxProperties: 0 } }));
  }
  return applyDecorators(...decorators);
}

export interface WireStreamOptions extends Pick<WireOperationOptions, 'operationId' | 'summary' | 'auth' | 'errors'> {
  /** The events, `name`: data shape, for the document. */
  events: string;
}

/** Declares one server-sent-event stream: `GET /v1/<operationId>`, its policy and its problem responses. */
export function WireStream(options: WireStreamOptions) {
  return applyDecorators(
    Sse(options.operationId),
    ...contract({ ...options, description: `Server-sent events.\n\n${options.events}` }, STREAM_TRANSPORT_ERRORS),
    ApiProduces('text/event-stream'),
    ApiOkResponse({ description: 'An event stream.', content: { 'text/event-stream': { schema: { type: 'string' } } } }),
  );
}

/**
 * Problem responses every operation can give whatever the wire reference lists for it: a body that is not
 * plain JSON (415), the caller's rate limit (429) and a backing store that is away (503). Streams take no body.
 */
const OPERATION_TRANSPORT_ERRORS = [415, 429, 503];
const STREAM_TRANSPORT_ERRORS = [429, 503];

/** What an operation and a stream declare alike: credential policy, operation id and problem responses. */
function contract(options: Pick<WireOperationOptions, 'operationId' | 'summary' | 'auth' | 'errors' | 'description'>, transport: number[]) {
  const errors = [...new Set([...options.errors, ...transport])].sort((a, b) => a - b);
  return [
    Auth(options.auth),
    ApiOperation({ operationId: options.operationId, summary: options.summary, description: options.description }),
    ApiExtraModels(ProblemDetailsDto),
    ...errors.map((status) =>
      ApiResponse({
        status,
        description: STATUS_TEXT[status] ?? 'Error',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ErrorModel' } } },
      }),
    ),
  ];
}
