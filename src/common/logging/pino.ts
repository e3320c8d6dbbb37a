import { Logger as NestPinoLogger, Params, PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { requestContext } from './request-context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Secrets never reach a log line: whatever carries them (a bearer header, a query parameter, an error message, a
 * field), every secret the service issues is masked by its prefix: API keys `sk_<key id>_` (the key id stays, it is
 * not secret), session tokens `auth_`, refresh tokens `rt_`, stream tickets `stk_` and webhook signing secrets
 * `whsec_` (src/auth/secrets.ts, stream-ticket.service.ts, webhook-signature.ts: a new prefix gets a line here).
 */
export const ISSUED_SECRET_PREFIXES = ['auth', 'rt', 'stk', 'whsec'] as const;
const SECRET_PATTERNS: [RegExp, string][] = [
  [/(Bearer\s+)[^\s"',]+/gi, '$1***'],
  [/\b(sk_[0-9a-f]{12}_)[A-Za-z0-9_-]+/g, '$1***'],
  [new RegExp(`\\b(${ISSUED_SECRET_PREFIXES.join('|')})_[A-Za-z0-9_-]{16,}`, 'g'), '$1_***'],
  // Query parameters that carry a credential, a stream ticket or an OAuth grant (code, state) of a redirect.
  [/([?&](?:key|access_token|ticket|code|state)=)[^&\s"]*/gi, '$1***'],
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
 * ISO time, the pid, the process (`api`, `worker`, `cli`, … once `configureLogging` has named it), the id of the
 * request being served (if any) and the line's fields; the finished line has its secrets masked before it is
 * written. Written synchronously (stdout, or the test's sink), so a line logged right before `process.exit` is not lost.
 */
export const rootLogger = pino(
  {
    level: 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: { streamWrite: redactSecrets },
    // The id of the request being served (request-context.ts), unless the line names one itself. A new object
    // each time: pino assigns the line's fields into it.
    mixin: (fields: object) => {
      const requestId = requestContext.getStore();
      return requestId === undefined || 'requestId' in fields ? {} : { requestId };
    },
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

/**
 * nestjs-pino's settings for Nest's own logger (nestLogger): the shared instance. Requests are named and logged by
 * nestjs-pino's middleware (pino-http), set up in the API's module (request-log.ts).
 */
const NEST_LOGGER_PARAMS: Params = { pinoHttp: { logger: rootLogger } };

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
  return new QuietStartLogger(new PinoLogger(NEST_LOGGER_PARAMS), NEST_LOGGER_PARAMS);
}
