/**
 * # Image store
 *
 * Profile images uploaded by their owners (`account.uploadImages`, session only) and served back.
 *
 * - **Checked by content** (`ImageProcessor`): strict base64, the format's signature (PNG, JPEG, GIF, WebP —
 *   never the claimed type), the header decoded by libvips (sharp) against the bounds of the image type
 *   (`IMAGE_LIMITS`: bytes, width, height, frames), then a full decode that refuses truncated or corrupt data,
 *   and a re-encode in the same format that drops all metadata. Every image of a request is checked before any
 *   is stored: a refusal (422, `errors[].location` = `body.images[i].data`) leaves nothing behind.
 * - **Stored outside the rows** (`ImageStore`): bytes by content address, `<sha256>.<ext>`, in a directory
 *   (`IMAGE_STORE_DIR`, `DirectoryImageStore`) or any store bound to the same three calls (an object store).
 *   `account_images` holds what references them (type, active flag, dimensions); the newest
 *   `KEPT_PER_TYPE` uploads of a type are kept, the newest active. Files no row references are deleted.
 * - **Served** at `GET /images/<fileName>` with `Cache-Control: immutable`, a strong `ETag` (the hash) and 304s.
 * - **Listed** in the `images` of `account.getInfo` and `account.getSettings` (`AccountImagesService.list`), and by
 *   `account.listImages`; `account.updateImages` chooses the active one of each type, `account.deleteImages` removes
 *   rows (and each file no row of any account refers to any more, under the file's lock).
 * - **Body limit**: this operation alone accepts bodies up to `IMAGE_UPLOAD_BODY_LIMIT_BYTES` (upload-body-route.ts,
 *   JsonBodyMiddleware); every other keeps `BODY_LIMIT_BYTES`.
 * - **Limits** (limits/upload-limits.ts): uploads per account per hour and day (429), re-encodings at once per
 *   process (503 past the queue), pixels × frames per image (422).
 * - **Off the event loop**: the body is parsed and each `data` decoded on the JSON body thread; the controller gets
 *   the bytes through `@Base64Fields()` (the body's `data` is then ''), libvips and the SHA-256 run on the threadpool.
 */
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AccountImagesService } from './account-images.service';
import { DirectoryImageStore } from './directory-image-store';
import { ImageFilesController } from './image-files.controller';
import { ImageProcessor } from './image-processor';
import { ImageStore } from './image-store';
import { UploadImagesController } from './upload-images.controller';
import { ManageImagesController } from './manage-images.controller';
import { UploadLimits } from './limits/upload-limits';
import { AuthModule } from '../auth/auth.module';

@Module({
  imports: [AuthModule],
  controllers: [UploadImagesController, ManageImagesController, ImageFilesController],
  providers: [
    {
      provide: ImageProcessor,
      useFactory: (config: AppConfig) => new ImageProcessor(config.images.pixelFrameBudget),
      inject: [APP_CONFIG],
    },
    UploadLimits,
    AccountImagesService,
    // An object store would be bound here instead, from its own config.
    { provide: ImageStore, useFactory: (config: AppConfig) => new DirectoryImageStore(config.images.storeDir), inject: [APP_CONFIG] },
  ],
  exports: [AccountImagesService],
})
export class ImagesModule {}
