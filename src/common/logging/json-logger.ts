import { LoggerService } from '@nestjs/common';
import { configureLogging, LogLevel, rootLogger } from './pino';

export { redactSecrets } from './pino';

/**
 * A named logger over the process's pino instance (see pino.ts): `logger.warn({ msg, ...fields })` writes one
 * JSON line with `context`, the request id of the request being served, and the fields. Services create their
 * own (`new JsonLogger('RankEngine')`); Nest writes through nestjs-pino's Logger over the same instance.
 */
export class JsonLogger implements LoggerService {
  static setLevel(level: LogLevel): void {
    configureLogging({ level });
  }

  constructor(private readonly context?: string) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }

  info(message: unknown, context?: string): void {
    this.write('info', message, context);
  }

  error(message: unknown, stackOrContext?: string, context?: string): void {
    const stack = context ? stackOrContext : undefined;
    this.write('error', message, context ?? (stack ? undefined : stackOrContext), stack);
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  private write(level: LogLevel, message: unknown, context?: string, stack?: string): void {
    if (!rootLogger.isLevelEnabled(level)) return;
    const fields =
      message instanceof Error
        ? { msg: message.message, error: message.name, stack: message.stack }
        : typeof message === 'object' && message !== null
          ? message
          : { msg: String(message) };
    rootLogger[level]({ context: typeof context === 'string' ? context : this.context, ...fields, ...(stack ? { stack } : {}) });
  }
}
