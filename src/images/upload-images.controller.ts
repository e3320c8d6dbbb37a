import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Base64Fields, DecodedFields } from '../common/http/base64-fields';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AccountImagesService } from './account-images.service';
import { V1AccountUploadImagesRequestBody, V1AccountUploadImagesResponseBody } from './dto/upload-images.dto';

@ApiTags('account')
@Controller('v1')
export class UploadImagesController {
  constructor(private readonly images: AccountImagesService) {}

  @WireOperation({
    operationId: 'account.uploadImages',
    summary: 'Upload profile images (user session only)',
    description:
      'Each image is checked by its content (PNG, JPEG, GIF or WebP; size and dimensions bounded per type), re-encoded ' +
      'without metadata, stored, and becomes the active image of its type. A refused image is a 422 naming it ' +
      '(`body.images[i].data`), and then nothing of the request is stored. Stored images are served at ' +
      '`GET /images/<fileName>`. The body may be larger here than elsewhere (`IMAGE_UPLOAD_BODY_LIMIT_BYTES`).',
    auth: 'session',
    response: V1AccountUploadImagesResponseBody,
    errors: [400, 401, 413, 422, 500],
  })
  async uploadImages(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountUploadImagesRequestBody,
    // The images' bytes, decoded off the event loop with the body (its `data` fields then hold '').
    @Base64Fields() decoded: DecodedFields,
  ): Promise<V1AccountUploadImagesResponseBody> {
    return { images: await this.images.upload(principal.accountId, body.images, decoded) };
  }
}
