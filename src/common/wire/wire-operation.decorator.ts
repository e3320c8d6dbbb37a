import { applyDecorators, Get, Header, HttpCode, Post, SetMetadata, Sse, Type, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiExtension,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  getSchemaPath,
} from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Auth, AuthPolicy } from '../auth/auth.decorator';
import { ProblemDetailsDto } from '../problem/problem-details.dto';
import { RESYNC_EVENT, STREAM_RETRY_MS } from '../replay/resumable-stream';
import { StreamResyncRequired } from '../replay/stream-resync.dto';
import { EmptyBodyGuard } from './empty-body.guard';
import { ProblemResponse } from './problem-responses';

export const WIRE_SCHEMA = 'wire:schema';

/** Route metadata of a stream: its operation id, which a stream ticket must name to open it. */
export const WIRE_STREAM = 'wire:stream';

/** The routed event streams; a stream ticket names one of them. */
export const STREAM_OPERATIONS = [
  'account.subscribe',
  'activity.streamGlobalFeed',
  'badge.pricing.subscribe',
  'site.subscribe',
  'stats.subscribe',
] as const;
export type StreamOperation = (typeof STREAM_OPERATIONS)[number];

/** The access class of each policy, as the document states it for every operation (and as `x-access`). */
const ACCESS: Record<AuthPolicy, string> = {
  any: 'an API key or a user session (`Authorization: Bearer …`).',
  session: 'a user session only (`Authorization: Bearer auth_…`); API keys get 401.',
  optional: 'public. A credential, when sent, identifies the caller (and counts against its own rate limit); an invalid one is ignored.',
  'refresh-token': 'no bearer credential: the `refreshToken` in the body is the credential.',
  'sign-in': "no bearer credential: the platform's signed OpenID assertion in the body is the credential.",
  public: 'public; no credential.',
};

export interface WireOperationOptions {
  /** Wire operation id, also the path: `POST /v1/<operationId>` (or GET, see `method`). */
  operationId: string;
  /** The wire reference's method: POST unless it names GET (`location.getLocations`), which then takes no body. */
  method?: 'GET' | 'POST';
  summary: string;
  /** What the operation does; the document prefixes it with the access class. */
  description: string;
  auth: AuthPolicy;
  /** Response DTO; its class name is the wire schema name used for `$schema`. Omit for a 204. */
  response?: Type<unknown>;
  /** What the 200 (or 204) answer holds; by default it names the response schema. */
  responseDescription?: string;
  /** A bare response (a map or an array): no wrapper and no `$schema`; given as its JSON Schema. */
  bareResponse?: SchemaObject;
  /** DTO classes the bare response refers to by `$ref`. */
  extraModels?: Type<unknown>[];
  /**
   * A 200 answered in other media types than JSON (the exports: NDJSON, CSV), each with its schema and example; the
   * handler writes the body itself.
   */
  content?: Record<string, { schema: SchemaObject; example?: unknown }>;
  /** Error statuses the wire reference lists for the operation. */
  errors: number[];
  /** The operation takes no body: anything but nothing or `{}` is a 422. */
  noBody?: boolean;
  /**
   * Its answers carry a credential, a code or a secret, or the caller's own private data: `Cache-Control: no-store`,
   * so no browser or proxy keeps them. On by default for the session-only operations (the signed-in user's own
   * account) and for those whose body is the credential (`refresh-token`, `sign-in`); set it for others that answer a
   * secret (e.g. a stream ticket).
   */
  noStore?: boolean;
}

/** The policies whose operations answer `Cache-Control: no-store` unless they say otherwise (see `noStore`). */
const NO_STORE_POLICIES: ReadonlySet<AuthPolicy> = new Set<AuthPolicy>(['session', 'refresh-token', 'sign-in']);

/**
 * Declares one wire operation: route, status, credential policy, `$schema` name and the OpenAPI entry, so a
 * controller method carries its whole contract in one place and delegates the rest. Request examples are kept
 * apart, in `openapi/request-examples.ts`, because they must name things a fresh start has.
 */
export function WireOperation(options: WireOperationOptions) {
  const decorators = [
    options.method === 'GET' ? Get(options.operationId) : Post(options.operationId),
    HttpCode(options.response || options.bareResponse || options.content ? 200 : 204),
    ...contract(options, OPERATION_TRANSPORT_ERRORS),
  ];
  if (options.content) {
    decorators.push(
      ApiExtraModels(...(options.extraModels ?? [])),
      ApiProduces(...Object.keys(options.content)),
      ApiOkResponse({
        description: options.responseDescription ?? 'Success: the body in the media type asked for.',
        content: options.content,
      }),
    );
  } else if (options.bareResponse) {
    decorators.push(
      ApiExtraModels(...(options.extraModels ?? [])),
      ApiOkResponse({
        description: options.responseDescription ?? 'Success: the map or list described below (no `$schema`).',
        schema: options.bareResponse,
      }),
    );
  } else if (options.response) {
    const description = options.responseDescription ?? `Success: a \`${options.response.name}\`.`;
    decorators.push(ApiOkResponse({ description, type: options.response }), SetMetadata(WIRE_SCHEMA, options.response.name));
  } else {
    decorators.push(ApiNoContentResponse({ description: options.responseDescription ?? 'Accepted; no body.' }));
  }
  if (options.noBody && options.method !== 'GET') {
    decorators.push(UseGuards(EmptyBodyGuard), ApiBody({ required: false, schema: { type: 'object', maxProperties: 0 } }));
  }
  if (options.noStore ?? NO_STORE_POLICIES.has(options.auth)) decorators.push(Header('Cache-Control', 'no-store'));
  return applyDecorators(...decorators);
}

/** One event a stream sends: its `event:` name, the class of its `data:` and when it is sent. */
export interface StreamEvent {
  name: string;
  data: Type<unknown>;
  when: string;
  /** A `data:` value for the example of the stream. */
  example?: unknown;
}

export interface WireStreamOptions extends Pick<WireOperationOptions, 'summary' | 'description' | 'auth' | 'errors'> {
  operationId: StreamOperation;
  events: StreamEvent[];
  /** What a client must refetch after `resync-required` (the operations), or what the stream resends itself. */
  resync: string;
  /** The query of the curl line in the description, e.g. `?accountId=1`. */
  exampleQuery?: string;
}

/**
 * Declares one server-sent-event stream: `GET /v1/<operationId>`, its policy, its events with their payload
 * schemas and its problem responses. Swagger UI offers "Try it out" for POST only (see http-app.ts): its fetch
 * waits for the end of the response, which a stream never reaches.
 */
export function WireStream(options: WireStreamOptions) {
  const resync: StreamEvent = {
    name: RESYNC_EVENT,
    data: StreamResyncRequired,
    when: `on reconnection with a \`Last-Event-ID\` that is malformed or no longer buffered; the stream goes on from now. ${options.resync}`,
  };
  const allEvents = [...options.events, resync];
  const events = allEvents.map((event) => `- \`${event.name}\` → \`${event.data.name}\`: ${event.when}`).join('\n');
  const url = `<base>/v1/${options.operationId}${options.exampleQuery ?? ''}`;
  const needsCredential = options.auth !== 'optional' && options.auth !== 'public';
  const opening = [
    '**Opening it.** Not from "Try it out" here (a stream never ends, so Swagger UI would wait forever): use',
    needsCredential ? `\`curl -N -H 'Authorization: Bearer <credential>' '${url}'\`` : `\`curl -N '${url}'\``,
    'or, from a browser, `new EventSource(url)`;',
    needsCredential
      ? 'as an `EventSource` cannot send `Authorization`, add'
      : 'to be identified (an `EventSource` cannot send `Authorization`), add',
    '`ticket=` from `auth.createStreamTicket` to its query. A problem (401, 404, 422, 429, …) is answered as',
    '`application/problem+json` before the stream starts.',
  ].join(' ');
  const resuming = [
    `**Resuming.** Every event but the heartbeat carries an \`id:\`; the stream opens with \`retry: ${STREAM_RETRY_MS}\` and the`,
    'current position as `id:` (no data). A client that reconnects with `Last-Event-ID` (an `EventSource` sends it by itself;',
    'or `?lastEventId=`) is sent every event it missed, in order and once, then the live ones. Ids are opaque, ordered within',
    'the stream; the buffer keeps a bounded number of recent events (see the architecture notes).',
  ].join(' ');
  const description = `${options.description}\n\n**Events** (\`event:\` name → schema of \`data:\`, one line of JSON):\n${events}\n\n${opening}\n\n${resuming}`;
  // Ids as the service sends them (opaque to clients); heartbeats carry none.
  const example =
    `retry: ${STREAM_RETRY_MS}\nid: 1767225600000-0\n\n` +
    options.events
      .filter((event) => event.example !== undefined)
      .map((event, i) => {
        const id = event.name.endsWith('heartbeat') ? '' : `id: 1767225600000-${i + 1}\n`;
        return `event: ${event.name}\n${id}data: ${JSON.stringify(event.example)}\n\n`;
      })
      .join('');
  return applyDecorators(
    Sse(options.operationId),
    SetMetadata(WIRE_STREAM, options.operationId),
    ...contract({ ...options, description }, STREAM_TRANSPORT_ERRORS),
    ApiExtraModels(...allEvents.map((event) => event.data)),
    ApiQuery({
      name: 'ticket',
      required: false,
      schema: { type: 'string', maxLength: 100 },
      description:
        'A stream ticket from `auth.createStreamTicket` (an extension of this service), in place of the `Authorization` header: ' +
        'valid 60 s, for this stream only, usable once. Never send `access_token` here: it is refused.',
    }),
    ApiQuery({
      name: 'lastEventId',
      required: false,
      schema: { type: 'string', maxLength: 64 },
      description:
        'The id of the last event received, for clients that cannot send the `Last-Event-ID` header (EventSource polyfills); the ' +
        'header wins when both are sent. Not a valid id of this stream → `resync-required`.',
    }),
    ApiHeader({
      name: 'Last-Event-ID',
      required: false,
      schema: { type: 'string' },
      description: 'The id of the last event received, sent by an `EventSource` when it reconnects: the stream resumes after it.',
    }),
    ApiProduces('text/event-stream'),
    ApiOkResponse({
      description: 'The event stream: `event:`/`data:` messages until the client leaves or the service stops.',
      content: { 'text/event-stream': { schema: streamSchema(allEvents), ...(example ? { example } : {}) } },
    }),
  );
}

/** The stream as a sequence of `{event, data}` messages, one alternative per event, so each payload has its schema. */
function streamSchema(events: StreamEvent[]): SchemaObject {
  return {
    type: 'array',
    format: 'event-stream',
    items: {
      oneOf: events.map((event) => ({
        type: 'object',
        title: event.name,
        required: ['event', 'data'],
        properties: { event: { type: 'string', enum: [event.name] }, data: { $ref: getSchemaPath(event.data) } },
      })),
    },
  };
}

/**
 * Problem responses every operation can give whatever the wire reference lists for it: a body that is not
 * plain JSON (415), the caller's rate limit (429) and a backing store that is away (503). Streams take no body.
 */
const OPERATION_TRANSPORT_ERRORS = [415, 429, 503];
const STREAM_TRANSPORT_ERRORS = [429, 503];

/** What an operation and a stream declare alike: credential policy, operation id, access class and problem responses. */
function contract(options: Pick<WireOperationOptions, 'operationId' | 'summary' | 'auth' | 'errors' | 'description'>, transport: number[]) {
  const errors = [...new Set([...options.errors, ...transport])].sort((a, b) => a - b);
  return [
    Auth(options.auth),
    ApiOperation({
      operationId: options.operationId,
      summary: options.summary,
      description: `**Access:** ${ACCESS[options.auth]}\n\n${options.description}`,
    }),
    ApiExtension('x-access', options.auth),
    ApiExtraModels(ProblemDetailsDto),
    ...errors.map((status) => ProblemResponse(status)),
  ];
}
