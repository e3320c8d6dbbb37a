import type { Logger as TypeOrmLogger } from 'typeorm';
import { JsonLogger } from './json-logger';
import { compactSql, maskValues, safeErrorFields } from './safe-error';

/**
 * TypeORM's own loggers print `query failed: <SQL> -- PARAMETERS: [...]` as plain text, parameters being
 * client input. This one writes JSON lines through JsonLogger (pino), with the statement (placeholders only) and
 * never its parameters. Successful queries are not logged at all.
 */
export class TypeOrmJsonLogger implements TypeOrmLogger {
  private readonly logger = new JsonLogger('typeorm');

  logQuery(): void {
    // Deliberately silent: a line per query is noise, and debugging SQL is done against a local database.
  }

  logQueryError(error: string | Error, query: string): void {
    const fields = typeof error === 'string' ? { error: maskValues(error) } : safeErrorFields(error);
    this.logger.warn({ msg: 'query failed', ...fields, query: compactSql(query), stack: undefined });
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ msg: 'slow query', durationMs: time, query: compactSql(query) });
  }

  logSchemaBuild(message: string): void {
    this.logger.debug({ msg: maskValues(message) });
  }

  logMigration(message: string): void {
    // TypeORM's step-by-step account; prepareDatabase logs one line with what was applied.
    this.logger.debug({ msg: 'migration', detail: message });
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const text = maskValues(String(message));
    if (level === 'warn') this.logger.warn({ msg: text });
    else this.logger.debug({ msg: text });
  }
}
