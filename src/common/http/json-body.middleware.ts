import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AsyncResource } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ClippedValue } from '../problem/clip-value';
import { ProblemException, unprocessable, unsupportedMediaType } from '../problem/problem.exception';
import { setDecodedFields } from './base64-fields';
import { attachStrings, Base64Paths } from './json-body-examiner';
import { JsonBodyPool } from './json-body-pool';
import { jsonLimitBreach } from './json-depth';
import { markBodyChecked } from './validation';
import { BodySlot, LargeBodyGate } from '../large-bodies/large-body-gate';

/** What the upload path reads and hands on in one turn of the event loop before it lets other work run. */
const READ_PER_TURN_BYTES = 256 * 1024;
/** How often a gated body's pace is checked, and the start it is given before the minimum rate applies. */
const PACE_CHECK_MS = 250;
const PACE_GRACE_MS = 1000;

/** How a body holding a LargeBodyGate slot must arrive: all of it within `deadlineMs`, at `minBytesPerSecond` or faster. */
interface BodyPace {
  deadlineMs: number;
  minBytesPerSecond: number;
}

/** A body parser that may hold a LargeBodyGate slot (whose receive buffer it may use). */
type BodyParser = (request: Request, response: Response, next: NextFunction, slot?: BodySlot) => void;

const JSON_TYPES = ['application/json', 'application/*+json'];

/** body-parser errors a client can cause, by their `type`, as the detail shown to the client. */
const BODY_PARSER_DETAILS: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON.',
  'entity.too.large': 'The request body is larger than this service accepts.',
  'encoding.unsupported': 'The request body must not be compressed: send it with no Content-Encoding.',
  'charset.unsupported': 'The request body uses an unsupported charset.',
  'request.aborted': 'The request body was not received completely.',
  'request.size.invalid': 'The request body does not match its Content-Length.',
  'request.timeout': 'The request body arrived too slowly; send it at once, or retry.',
};

/**
 * An operation allowed a body larger than BODY_LIMIT_BYTES, received into shared memory and parsed off the event loop
 * (JsonBodyMiddleware.offThread). The area owning the operation declares it and the API module hands the list in
 * (LARGE_BODY_ROUTES), so that this parser knows no area.
 */
export interface LargeBodyRoute {
  /** The route's path as declared, e.g. `/v1/account.uploadImages` (matched case-insensitively, like express). */
  path: string;
  limitBytes: number;
  /** The name of the request schema checked on the worker thread. */
  schema: string;
  /** The body's base64 strings, decoded on the worker thread too. */
  base64: Base64Paths;
}

export const LARGE_BODY_ROUTES = Symbol('LARGE_BODY_ROUTES');

/**
 * JSON body parsing as Nest middleware (not app.use) so that malformed or oversized bodies reach the
 * problem-details filter like every other error. `$schema` is dropped from request objects: an earlier
 * revision let clients echo it, and it must not count as an unknown field.
 *
 * Compressed bodies are refused (415) rather than inflated: no client of the API compresses requests, and
 * inflating would let a small request cost the server a large buffer. A body that is not JSON is refused
 * (415) instead of being ignored; an empty body with any or no Content-Type is no body at all, which is how
 * reference clients call the operations that take none.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly limit: number;
  /**
   * body-parser's json() for every body within the usual limit. A hand-written reader of the common UTF-8 body
   * measured no gain against it (docs/architecture.md, "Hand-written, and why").
   */
  private readonly fullParse: RequestHandler;
  /** The operations allowed larger bodies, by lower-cased path (express matches paths case-insensitively). */
  private readonly generous: Map<string, BodyParser>;
  /** Their body limits, by the same key. */
  private readonly limits: Map<string, number>;
  private readonly pace: BodyPace;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LARGE_BODY_ROUTES) routes: LargeBodyRoute[],
    private readonly pool: JsonBodyPool,
    private readonly gate: LargeBodyGate,
  ) {
    this.limit = config.bodyLimitBytes;
    this.pace = { deadlineMs: config.largeBodies.deadlineMs, minBytesPerSecond: config.largeBodies.minBytesPerSecond };
    this.fullParse = json({ limit: this.limit, strict: false, inflate: false, type: JSON_TYPES, verify: refuseOversizedStructure });
    this.limits = new Map(routes.map((route) => [route.path.toLowerCase(), Math.max(config.bodyLimitBytes, route.limitBytes)]));
    this.generous = new Map(
      routes.map((route) => [
        route.path.toLowerCase(),
        this.offThread(Math.max(config.bodyLimitBytes, route.limitBytes), route.schema, route.base64),
      ]),
    );
  }

  /**
   * The parser of bodies within the usual limit: json(). A body holding a large-body gate slot (chunked, or over
   * 64 KiB) is received here instead, into the slot's buffer at the gate's pace (receive: json()'s limit and errors),
   * checked as json()'s `verify` checks it (refuseOversizedStructure), its byte order mark dropped as json()'s decoder
   * drops it, and parsed (an empty body is `{}`, as json() has it); a Content-Encoding goes to json(), which refuses it.
   */
  private readonly parse: BodyParser = (request, response, next, slot) => {
    // A body within the usual limit is json()'s (measured: a hand-written reader gained nothing, docs/architecture.md).
    if (!slot) return this.fullParse(request, response, next);
    // As json() leaves a request: with a `body`, undefined when none was sent.
    if (!Object.hasOwn(request, 'body')) request.body = undefined;
    if (!hasBody(request)) return next();
    if (request.header('content-encoding') === undefined && !namesUtf8(request)) {
      // A gated body is read here, at the gate's pace; JSON between systems is UTF-8 (RFC 8259), as on the upload path.
      request.resume();
      return next(Object.assign(new Error('unsupported charset'), { status: 415, type: 'charset.unsupported' }));
    }
    // A chunked body holds a gate slot (it counts as large): it is received here, into the slot's buffer, at a pace.
    const receivable = request.header('content-encoding') === undefined;
    if (!receivable || !namesUtf8(request)) return this.fullParse(request, response, next);
    this.receive(
      request,
      this.limit,
      (size) => Buffer.from(slot.buffer(size), 0, size),
      this.pace,
      (error, bytes, length) => {
        if (error) return next(error);
        const body = (bytes as Buffer).subarray(0, length);
        try {
          refuseOversizedStructure(request, response, body);
        } catch (breach) {
          return next(breach);
        }
        let text = body.toString('utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        try {
          request.body = text.length === 0 ? {} : JSON.parse(text);
        } catch {
          return next(Object.assign(new Error('invalid JSON'), { status: 400, type: 'entity.parse.failed' }));
        }
        next();
      },
    );
  };

  /**
   * A parser for megabyte bodies that keeps the event loop free: the bytes are received into shared memory (same
   * limit and errors as json(), see receive) and the structure check, JSON.parse and the schema check of `schema` run
   * on a worker thread (JsonBodyPool), which decodes the strings at `base64` too (see base64-fields.ts); the pipe
   * then uses that check's outcome. A charset other than UTF-8 is a 415: JSON exchanged between systems is UTF-8
   * (RFC 8259), and decoding another one here would put the body back on the loop.
   */
  private offThread(limit: number, schema: string, base64: Base64Paths): BodyParser {
    return (request, _response, next, slot) => {
      const charset = charsetOf(request);
      if (charset && charset !== 'utf-8' && charset !== 'utf8') {
        request.resume();
        return next(Object.assign(new Error('unsupported charset'), { status: 415, type: 'charset.unsupported' }));
      }
      if (!hasBody(request)) return next();
      const shared = (size: number) => new Uint8Array(slot ? slot.buffer(size) : new SharedArrayBuffer(size), 0, size);
      this.receive(request, limit, shared, slot ? this.pace : undefined, (error, bytes, length) => {
        if (error) return next(error);
        this.pool.examine(bytes!.buffer as SharedArrayBuffer, length!, schema, base64).then(async (examined) => {
          switch (examined.kind) {
            case 'breach':
              return next(new StructureBreach(examined.location, examined.message));
            case 'syntax':
              return next(Object.assign(new Error('invalid JSON'), { status: 400, type: 'entity.parse.failed' }));
            case 'problems': {
              // The guard runs before the pipe answers these; it only needs to know of an `access_token` field.
              const standIn: Record<string, unknown> = examined.offersToken ? { access_token: null } : {};
              const problems = examined.problems.map((problem) => ({ ...problem, value: new ClippedValue(problem.value) }));
              markBodyChecked(standIn, schema, problems);
              request.body = standIn;
              return next();
            }
            case 'body':
              await attachStrings(examined.body, examined.strings);
              setDecodedFields(
                request,
                new Map(
                  examined.decoded.map((field) => [
                    field.path,
                    { bytes: field.bytes && Buffer.from(field.bytes), claimedBytes: field.claimedBytes },
                  ]),
                ),
              );
              if (examined.body && typeof examined.body === 'object') markBodyChecked(examined.body, schema, []);
              request.body = examined.body;
              return next();
          }
        }, next);
      });
    };
  }

  /**
   * Receives a body into the bytes `allocate` gives for its size (for the large bodies, the receive buffer of its gate
   * slot, or shared memory of its own for one that needs no slot), with json()'s limit and errors: 415 for a
   * Content-Encoding, 413 over the limit (from Content-Length before reading, or as the bytes arrive), 400 for a body
   * shorter or longer than its Content-Length or cut off. Each socket chunk is copied once, into place; every
   * READ_PER_TURN_BYTES the socket is paused until the next turn, since libuv would otherwise hand over up to 2 MiB per
   * socket in one turn. With a `pace` (a body holding a gate slot) a body that falls behind the minimum rate after
   * PACE_GRACE_MS, or is not all in by the deadline, is cut off with a 408: the slot is not a stranger's to keep.
   */
  private receive(
    request: Request,
    limit: number,
    allocate: (size: number) => Uint8Array,
    pace: BodyPace | undefined,
    callback: (error: unknown, bytes?: Uint8Array, length?: number) => void,
  ): void {
    // The stream's events run in the socket's async context: `done` runs in the caller's, as json()'s callback does,
    // so what follows (the request's id in its log lines and query records, request-context.ts) is still the request's.
    // Through runInAsyncScope, not AsyncResource.bind: on Node 20 bind defines a property with two deprecation
    // wrappers on every bound function, ~1.5 % of the API's CPU per request with a body (docs/performance-history.md,
    // "Card texts evicted without walking deleted slots, a body's async context without deprecation wrappers").
    const resource = new AsyncResource('JsonBodyReceive');
    const done = (error: unknown, bytes?: Uint8Array, length?: number) => resource.runInAsyncScope(callback, null, error, bytes, length);
    const fail = (status: number, type: string) => Object.assign(new Error(type), { status, type, expose: true });
    const encoding = (request.header('content-encoding') ?? 'identity').toLowerCase();
    if (encoding !== 'identity') {
      request.resume();
      return done(fail(415, 'encoding.unsupported'));
    }
    const declared = request.header('content-length') === undefined ? undefined : Number(request.header('content-length'));
    if (declared !== undefined && declared > limit) {
      request.resume();
      return done(fail(413, 'entity.too.large'));
    }
    const size = declared ?? limit;
    const view = allocate(size);
    let received = 0;
    let thisTurn = 0;
    let settled = false;
    let watch: NodeJS.Timeout | undefined;
    const settle = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      request.off('data', onData);
      if (error) {
        request.resume();
        done(error);
      } else {
        done(null, view, received);
      }
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > size) {
        // Over the limit, or longer than its Content-Length (which Node's parser never lets through).
        return settle(declared === undefined ? fail(413, 'entity.too.large') : fail(400, 'request.size.invalid'));
      }
      view.set(chunk, received);
      received += chunk.length;
      thisTurn += chunk.length;
      if (thisTurn >= READ_PER_TURN_BYTES) {
        thisTurn = 0;
        request.pause();
        setImmediate(() => request.resume());
      }
    };
    if (pace) {
      const started = performance.now();
      watch = setInterval(() => {
        const elapsed = performance.now() - started;
        if (elapsed > pace.deadlineMs || received < (pace.minBytesPerSecond * (elapsed - PACE_GRACE_MS)) / 1000)
          settle(fail(408, 'request.timeout'));
      }, PACE_CHECK_MS);
    }
    request.on('data', onData);
    request.once('end', () => settle(declared !== undefined && declared !== received ? fail(400, 'request.size.invalid') : null));
    request.once('aborted', () => settle(fail(400, 'request.aborted')));
    request.once('error', (error) => settle(error));
  }

  use(request: Request, response: Response, next: NextFunction): void {
    if (hasBody(request) && !request.is(JSON_TYPES)) {
      // Drain what was sent so the 415 is not answered while the client is still writing.
      request.resume();
      return next(unsupportedMediaType('The request body must be JSON, sent as Content-Type: application/json.'));
    }
    const parsed = (slot?: BodySlot) => (error?: unknown) => {
      // The slot (and its receive buffer) is free once the body is parsed; the handler runs outside the gate.
      slot?.release();
      if (error) return next(toProblem(error));
      const body: unknown = request.body;
      if (body && typeof body === 'object' && !Array.isArray(body) && '$schema' in body) {
        delete (body as Record<string, unknown>).$schema;
      }
      next();
    };
    const parser = this.parserFor(request);
    if (!hasBody(request) || !LargeBodyGate.isLarge(request)) return parser(request, response, parsed());
    // A declared length over the route's limit is a 413 from the headers alone (receive): no slot, no credential asked.
    if (parser !== discardBody && Number(request.header('content-length')) > this.limitOf(request))
      return parser(request, response, parsed());
    this.gate.enter(request, response, (slot) => parser(request, response, parsed(slot), slot), next);
  }

  /**
   * The body is parsed before the guard runs. The large limit goes only to a request that carries a bearer token
   * that is not an API key (the operation takes user sessions only); any other request's body is discarded unread
   * as it arrives, and the guard answers 401, so no caller can make the server buffer megabytes it will refuse.
   */
  private limitOf(request: Request): number {
    return this.limits.get(routePath(request)) ?? this.limit;
  }

  private parserFor(request: Request): BodyParser {
    const generous = this.generous.get(routePath(request));
    if (!generous) return this.parse;
    const token = /^Bearer\s+(\S+)$/i.exec(request.header('authorization') ?? '')?.[1];
    return token && !token.startsWith('sk_') ? generous : discardBody;
  }
}

/** The request's path as the large-body routes are keyed: lower-cased, without a trailing slash. */
function routePath(request: Request): string {
  // originalUrl: `path` is relative to where Nest mounted the middleware.
  return request.originalUrl.split('?')[0].toLowerCase().replace(/\/+$/, '');
}

function discardBody(request: Request, _response: Response, next: NextFunction): void {
  request.resume();
  next();
}

/** The charset the body's Content-Type names, lower-cased, or undefined when it names none. */
function charsetOf(request: Request): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.header('content-type') ?? '')?.[1]?.toLowerCase();
}

function namesUtf8(request: Request): boolean {
  const charset = charsetOf(request);
  return charset === undefined || charset === 'utf-8';
}

/** A body is present when it is chunked or has a non-zero length (type-is counts `Content-Length: 0` as one). */
function hasBody(request: Request): boolean {
  const length = request.header('content-length');
  return request.header('transfer-encoding') !== undefined || (length !== undefined && length.trim() !== '0');
}

/**
 * body-parser's `verify` hook: runs on the raw bytes before JSON.parse, so a body nested too deeply or with a
 * huge array or object is refused without being parsed (a few milliseconds at most for the largest body).
 */
function refuseOversizedStructure(_request: unknown, _response: unknown, body: Buffer): void {
  const breach = jsonLimitBreach(body);
  if (breach) throw new StructureBreach(breach.location, breach.message);
}

class StructureBreach extends Error {
  constructor(
    readonly location: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function toProblem(error: unknown): unknown {
  // body-parser wraps what verify throws; the original is kept as the same object with its fields.
  if (error instanceof StructureBreach) {
    return unprocessable(`The request has 1 invalid field(s): ${error.location}.`, [{ location: error.location, message: error.reason }]);
  }
  const parserError = error as { type?: string; status?: number };
  const status = parserError.status;
  if (!status || status >= 500) return error;
  const detail = (parserError.type && BODY_PARSER_DETAILS[parserError.type]) ?? 'The request body could not be read.';
  // A body cut off for its pace is not drained: its connection closes once the 408 is sent.
  const headers: Record<string, string> | undefined =
    parserError.type === 'encoding.unsupported'
      ? { 'Accept-Encoding': 'identity' }
      : parserError.type === 'request.timeout'
        ? { Connection: 'close' }
        : undefined;
  return new ProblemException(status, detail, { headers });
}
