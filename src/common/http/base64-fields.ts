import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { DecodedBase64 } from './base64';

/**
 * Base64 fields of a request body decoded off the event loop (JsonBodyMiddleware → the JSON body thread), handed
 * to the controller beside the body the way multer hands it `@UploadedFiles()`: the body keeps each such field as
 * '' and its bytes come from `@Base64Fields()`. Decoding 17 MiB of base64 on the loop held it for 50–100 ms.
 */
/** The decoded fields of a request, by their path in the body (`images.0.data`). */
export type DecodedFields = ReadonlyMap<string, DecodedBase64>;

const decodedByRequest = new WeakMap<Request, DecodedFields>();

export function setDecodedFields(request: Request, fields: DecodedFields): void {
  decodedByRequest.set(request, fields);
}

/** The request's decoded base64 fields (empty when its body was not read by the JSON body thread). */
export const Base64Fields = createParamDecorator(
  (_data: unknown, context: ExecutionContext): DecodedFields =>
    decodedByRequest.get(context.switchToHttp().getRequest<Request>()) ?? new Map(),
);
