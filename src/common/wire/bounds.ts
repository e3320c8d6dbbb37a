/**
 * Integer widths of request fields, for the OpenAPI document (`format`, `minimum`, `maximum`). int64 fields stop at 2^53 − 1: a JSON number past it cannot be read exactly,
 * so a larger one is refused rather than silently rounded.
 */
export const INT32_MAX = 2147483647;
export const INT64_SAFE_MAX = Number.MAX_SAFE_INTEGER;
