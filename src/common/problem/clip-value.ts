import type { ErrorDetail } from './problem.exception';

/** Longest string echoed back in `errors[].value` and `location`. */
export const MAX_ECHOED_STRING = 64;
/** Elements or keys of an array or object echoed back before the rest is summarised. */
const MAX_ECHOED_ENTRIES = 5;
/** How deep an echoed value is copied; anything deeper is summarised. */
const MAX_ECHOED_DEPTH = 2;
/** Problems listed in one answer; a hostile request can have thousands, the first ones are enough to fix it. */
export const MAX_ECHOED_PROBLEMS = 20;

/**
 * A short copy of an offending value, for `errors[].value`: long strings cut, big arrays and objects shortened
 * to their first entries and nested values summarised. The copy walks at most a few dozen nodes, so a 200 kB
 * string or an 80,000-element (or 100,000-deep) array costs nothing to report and is not sent back.
 */
export function clipValue(value: unknown, depth = 0): unknown {
  if (value instanceof ClippedValue) return value.value;
  if (typeof value === 'string') return clipString(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (depth >= MAX_ECHOED_DEPTH) return `[array of ${value.length}]`;
    const head = value.slice(0, MAX_ECHOED_ENTRIES).map((item) => clipValue(item, depth + 1));
    return value.length > MAX_ECHOED_ENTRIES ? [...head, `… ${value.length - MAX_ECHOED_ENTRIES} more`] : head;
  }
  if (depth >= MAX_ECHOED_DEPTH) return '{object}';
  const copy: Record<string, unknown> = {};
  let count = 0;
  for (const key in value) {
    if (count++ === MAX_ECHOED_ENTRIES) {
      copy['…'] = 'more keys';
      break;
    }
    // defineProperty: a `__proto__` key is copied as data, not taken for the prototype.
    Object.defineProperty(copy, clipString(key), {
      value: clipValue((value as Record<string, unknown>)[key], depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/** A value clipped already (on the thread that checked a large body): echoed as it is, not clipped again. */
export class ClippedValue {
  constructor(readonly value: unknown) {}
}

export function clipString(text: string): string {
  return text.length <= MAX_ECHOED_STRING ? text : `${text.slice(0, MAX_ECHOED_STRING)}… (${text.length} characters)`;
}

/** The problems as they are answered: at most MAX_ECHOED_PROBLEMS, each value and location shortened. */
export function clipProblems(errors: ErrorDetail[]): ErrorDetail[] {
  return errors.slice(0, MAX_ECHOED_PROBLEMS).map((error) => ({
    ...error,
    ...(error.location !== undefined ? { location: clipText(error.location) } : {}),
    message: clipText(error.message),
    ...('value' in error ? { value: clipValue(error.value) } : {}),
  }));
}

/** Locations and messages are built by the service, but may carry a client key: 200 characters is plenty. */
function clipText(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
