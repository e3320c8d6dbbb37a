/** Builds a WHERE clause piece by piece; every value travels as a bound parameter, never as SQL text. */
export class SqlConditions {
  readonly parts: string[] = [];
  readonly parameters: unknown[] = [];

  /** `sql` receives the placeholder (`$n`) of `value`. */
  add(sql: (placeholder: string) => string, value: unknown): void {
    this.parameters.push(value);
    this.parts.push(sql(`$${this.parameters.length}`));
  }

  /** Like `add`, for a condition on several values: `sql` receives their placeholders in order. */
  addAll(sql: (...placeholders: string[]) => string, ...values: unknown[]): void {
    const placeholders = values.map((value) => `$${this.parameters.push(value)}`);
    this.parts.push(sql(...placeholders));
  }

  /**
   * Inclusive bounds, each optional. The bounds are int64 on the wire while the columns may be `integer`: as
   * `bigint` parameters they compare with either (and still use the index) instead of failing out of range.
   */
  range(column: string, range: { min?: number; max?: number } | undefined): void {
    if (range?.min !== undefined) this.add((p) => `${column} >= ${p}::bigint`, range.min);
    if (range?.max !== undefined) this.add((p) => `${column} <= ${p}::bigint`, range.max);
  }

  sql(): string {
    return this.parts.length ? this.parts.join(' AND ') : 'true';
  }

  /** An ILIKE pattern matching text that contains `term` literally. */
  static contains(term: string): string {
    return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
}
