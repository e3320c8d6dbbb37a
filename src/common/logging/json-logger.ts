import { LoggerService } from '@nestjs/common';
import { currentRequestId } from './request-context';

type Level = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

let threshold = LEVELS.info;

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

/**
 * One JSON object per line on stdout: machine-readable, with the request id of the current request.
 * Used by Nest itself (app.useLogger) and directly by services.
 */
export class JsonLogger implements LoggerService {
  static setLevel(level: Level): void {
    threshold = LEVELS[level];
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

  private write(level: Level, message: unknown, context?: string, stack?: string): void {
    if (LEVELS[level] < threshold) return;
    const fields =
      message instanceof Error
        ? { msg: message.message, error: message.name, stack: message.stack }
        : typeof message === 'object' && message !== null
          ? message
          : { msg: String(message) };
    const line = {
      time: new Date().toISOString(),
      level,
      context: typeof context === 'string' ? context : this.context,
      requestId: currentRequestId(),
      ...fields,
      ...(stack ? { stack } : {}),
    };
    process.stdout.write(`${redactSecrets(JSON.stringify(line))}\n`);
  }
}
