import { LargeBodyRoute } from '../common/http/json-body.middleware';
import { AppConfig } from '../config/app-config';
import { V1AccountUploadImagesRequestBody } from './dto/upload-images.dto';

/**
 * `account.uploadImages`' body, declared to the JSON body parser (the API module provides it as LARGE_BODY_ROUTES):
 * images travel as base64 in JSON (the wire format), so this operation alone needs megabytes, and each `data` is
 * decoded on the JSON body thread.
 */
export function uploadImagesBodyRoute(config: AppConfig): LargeBodyRoute {
  return {
    path: '/v1/account.uploadImages',
    limitBytes: config.images.uploadBodyLimitBytes,
    schema: V1AccountUploadImagesRequestBody.name,
    base64: [['images', '*', 'data']],
  };
}
