import { ApiResponse } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';

/** When each problem status is answered, for the response descriptions of the document. */
const WHEN: Record<number, string> = {
  400: 'The body could not be read: invalid JSON, or larger than the service accepts.',
  401: 'The credential is missing, unknown, revoked or expired, of the wrong kind for this operation, or sent outside the `Authorization` header.',
  403: 'The caller is identified but not allowed to do this.',
  404: 'The account, app, badge or other resource the request names is not known.',
  409: 'The request conflicts with the current state: the resource changed since the version the request names, or an allowance is full (developer apps).',
  413: 'The request body is larger than the operation accepts.',
  415: 'The body is not JSON, is compressed (`Content-Encoding`), or is in a charset the operation does not read.',
  422: 'A field is missing, unknown or invalid; `errors[]` lists each one with its `location`.',
  429: 'The caller’s rate limit (or the account’s update cooldown) is spent; retry after `Retry-After` seconds.',
  500: 'An unexpected error; quote the request id (`X-Request-Id`, `instance`) when reporting it.',
  503: 'PostgreSQL or Redis is unreachable for a moment, or too many bodies over 64 KiB are already waiting to be read; retry after `Retry-After` seconds.',
};

/** A typical body of each status, as the service sends it (the 422 with one entry of `errors`). */
const DETAIL: Record<number, string> = {
  400: 'The request body is not valid JSON.',
  401: 'A valid bearer credential is required.',
  403: 'Only staff may force an update.',
  404: 'The account is not tracked by this service; queue an update to add it.',
  409: 'The tags changed since version 3; read them again.',
  413: 'The request body is larger than this operation accepts.',
  415: 'The request body must be JSON, sent as Content-Type: application/json.',
  422: 'The request has 1 invalid field(s): body.id.accountId.',
  429: 'This API key made too many requests; retry after the Retry-After delay.',
  500: 'An unexpected error occurred. Quote request id 6f1c2a9e-2b47-4f59-9a43-0c6d1f1e8b21 when reporting it.',
  503: 'A backing service is temporarily unavailable; retry shortly.',
};

function problemExample(status: number): Record<string, unknown> {
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: DETAIL[status] ?? STATUS_CODES[status] ?? 'Error',
    instance: 'urn:request:6f1c2a9e-2b47-4f59-9a43-0c6d1f1e8b21',
    errors: status === 422 ? [{ location: 'body.id.accountId', message: 'accountId must not be less than 0', value: -1 }] : null,
  };
}

const exampleName = (status: number) => `Problem${status}`;

/** `components.examples` of the document: one problem body per status, which the responses refer to. */
export function problemExamples(): Record<string, { summary: string; value: Record<string, unknown> }> {
  return Object.fromEntries(
    Object.keys(DETAIL).map((key) => {
      const status = Number(key);
      return [exampleName(status), { summary: `${status} ${STATUS_CODES[status] ?? ''}`.trim(), value: problemExample(status) }];
    }),
  );
}

/** The documented problem response of one status: when it happens and an example whose `status` is that status. */
export function ProblemResponse(status: number) {
  const example = DETAIL[status] ? { examples: { [exampleName(status)]: { $ref: `#/components/examples/${exampleName(status)}` } } } : {};
  return ApiResponse({
    status,
    description: `${STATUS_CODES[status] ?? 'Error'}. ${WHEN[status] ?? ''}`.trim(),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ErrorModel' }, ...example } },
  });
}
