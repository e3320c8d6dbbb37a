import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger as NestPinoLogger, Params, PinoLogger } from 'nestjs-pino';
import pino from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Secrets never reach a log line: bearer tokens, API keys and refresh tokens are masked wherever they appear. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/(Bearer\s+)[^\s"',]+/gi, '$1***'],
  [/\b(sk_[0-9a-f]{12}_)[A-Za-z0-9_-]+/g, '$1***'],
  [/\b(auth|rt)_[A-Za-z0-9_-]{16,}/g, '$1_***'],
  [/([?&]key=)[^&\s"]*/gi, '$1***'],
  [/([?&]access_token=)[^&\s"]*/gi, '$1***'],
];

export function redactSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

type Write = (line: string) => void;

/** JSON lines on `stream`, or pino-pretty's lines when it is a terminal (and pino-pretty, a dev dependency, is installed). */
function writerTo(stream: NodeJS.WriteStream = process.stdout): Write {
  const raw: Write = (line) => void stream.write(line);
  if (!stream.isTTY) return raw;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional at run time: absent in a production image
    const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
    const pretty = prettyFactory({
      colorize: true,
      singleLine: true,
      errorLikeObjectKeys: ['err'],
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,process,context',
      messageFormat: (log, messageKey) => [log.process, log.context, log[messageKey]].filter(Boolean).join(' '),
    });
    return (line) => void stream.write(pretty(line));
  } catch {
    return raw;
  }
}

let write: Write = writerTo();

/**
 * The one pino instance of the process: every line is a JSON object with a label level (`"level":"info"`), an
 * ISO time, the pid, the process (`api`, `worker`, `cli`, … once `configureLogging` has named it) and the
 * line's fields; the finished line has its secrets masked before it is written. Written synchronously (stdout,
 * or the test's sink), so a line logged right before `process.exit` is not lost.
 */
export const rootLogger = pino(
  {
    level: 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: { streamWrite: redactSecrets },
  },
  { write: (line: string) => write(line) },
);

let processNamed = false;

/**
 * Names this process in every line (`process`), sets the level, and optionally where lines go (the CLI keeps
 * stdout for its output). Called once by each entrypoint before it logs.
 */
export function configureLogging(options: { process?: string; level?: LogLevel; stream?: NodeJS.WriteStream }): void {
  if (options.process && !processNamed) {
    processNamed = true;
    rootLogger.setBindings({ process: options.process });
  }
  if (options.level) rootLogger.level = options.level;
  if (options.stream) write = writerTo(options.stream);
}

/** Sends every line to `sink` instead (tests: nothing reaches jest's output unless a test reads it); null restores stdout. */
export function setLogSink(sink: Write | null): void {
  write = sink ?? writerTo();
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

type LoggedRequest = IncomingMessage & {
  originalUrl?: string;
  user?: { kind: string; keyId?: string; sessionId?: string };
};

/** One line per finished request: method, path (never the query or headers: they may hold secrets), status, time, credential id. */
function requestLine(req: LoggedRequest, res: ServerResponse, fields: { responseTime?: number }): Record<string, unknown> {
  const principal = req.user;
  return {
    method: req.method,
    path: (req.originalUrl ?? req.url ?? '').split('?')[0],
    status: res.statusCode,
    durationMs: fields.responseTime,
    credential: principal ? { kind: principal.kind, id: principal.keyId ?? principal.sessionId } : undefined,
  };
}

/**
 * nestjs-pino's settings: pino-http over the shared instance logs each request once it is finished; the request
 * id (the client's well-formed X-Request-Id, else a UUID, echoed in the response) is bound to every line logged
 * while the request is served; the request logger carries nothing else (no serialized request: headers hold
 * credentials).
 */
export const LOGGER_PARAMS: Params = {
  // Mounted like the other middleware ('*', a prefix match): nestjs-pino's default route info would mount it as
  // an every-method route, which RouteMethods would take for a route accepting every method (no 405s).
  forRoutes: ['*'],
  pinoHttp: {
    logger: rootLogger,
    quietReqLogger: true,
    quietResLogger: true,
    // pino-http builds a logger bound to the serialized request for every request, even when (quiet, as here) it is
    // never used: serializing the request (headers and all) as JSON cost ~4 % of a small answer's CPU (docs/performance-history.md).
    // The request is never logged whole (its headers hold credentials), so its serializer writes nothing.
    wrapSerializers: false,
    serializers: { req: () => undefined },
    customAttributeKeys: { reqId: 'requestId' },
    genReqId: (req, res) => {
      const offered = req.headers['x-request-id'];
      const id = typeof offered === 'string' && CLIENT_REQUEST_ID.test(offered) ? offered : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: () => 'info',
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customSuccessObject: (req, res, fields) => requestLine(req, res, fields),
    customErrorObject: (req, res, _error, fields) => requestLine(req, res, fields),
  },
};

const requestScoped = new PinoLogger(LOGGER_PARAMS);

/** The pino logger of the request being served (its lines carry `requestId`), else the root one. */
export function currentLogger(): pino.Logger {
  return requestScoped.logger;
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  const logger = currentLogger();
  return logger === rootLogger ? undefined : (logger.bindings().requestId as string | undefined);
}

/** Nest's start-up chatter (a line per module and per route): kept at debug, so `info` shows what matters. */
const NEST_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

class QuietStartLogger extends NestPinoLogger {
  override log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && NEST_CHATTER.has(context)) super.debug(message, ...params);
    else super.log(message, ...params);
  }
}

/** The logger Nest itself writes through (NestFactory's `logger` option): nestjs-pino's, over the shared instance. */
export function nestLogger(): NestPinoLogger {
  return new QuietStartLogger(new PinoLogger(LOGGER_PARAMS), LOGGER_PARAMS);
}
