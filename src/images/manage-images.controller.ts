import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { Principal } from '../common/auth/principal';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { AccountImagesService } from './account-images.service';
import {
  V1AccountDeleteImagesRequestBody,
  V1AccountDeleteImagesResponseBody,
  V1AccountListImagesResponseBody,
  V1AccountUpdateImageRequestBody,
  V1AccountUpdateImageResponseBody,
} from './dto/manage-images.dto';

const PROFILE =
  'The active `avatar` and `background` (and the other types) are what the profile shows: `account.getInfo` lists them in ' +
  '`images` from its next read. The profile’s `avatar` field stays the platform’s avatar hash (leaderboard rows and cards ' +
  'show that one); a client shows the active uploaded avatar, `GET /images/<fileName>`, in its place when there is one.';

/** The caller's uploaded images: listed, chosen, deleted (uploads are UploadImagesController's). */
@ApiTags('account')
@Controller('v1')
export class ManageImagesController {
  constructor(private readonly images: AccountImagesService) {}

  @WireOperation({
    operationId: 'account.listImages',
    summary: 'List uploaded images (user session only)',
    description: `The images the caller uploaded and still has, by type, the active one first, then newest first. ${PROFILE}`,
    auth: 'session',
    response: V1AccountListImagesResponseBody,
    errors: [400, 401, 404, 500],
    noBody: true,
  })
  async listImages(@CurrentPrincipal() principal: Principal): Promise<V1AccountListImagesResponseBody> {
    return { images: await this.images.list(principal.accountId) };
  }

  @WireOperation({
    operationId: 'account.updateImages',
    summary: 'Update account images (user session only)',
    description:
      'Makes each named image active or not. Only one image of each type is active: activating one deactivates the others ' +
      'of its type; two of one type made active in one request is a 422. An id that is not one of the caller’s images is a ' +
      `404, and then nothing changes. ${PROFILE}`,
    auth: 'session',
    response: V1AccountUpdateImageResponseBody,
    errors: [400, 401, 404, 422, 500],
  })
  async updateImages(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountUpdateImageRequestBody,
  ): Promise<V1AccountUpdateImageResponseBody> {
    await this.images.update(principal.accountId, body.images);
    return {};
  }

  @WireOperation({
    operationId: 'account.deleteImages',
    summary: 'Delete uploaded images (user session only)',
    description:
      'Deletes the caller’s images among `imageIds` (ids it does not have are ignored). A stored file goes from the store ' +
      'once no image of any account refers to it (the same picture uploaded twice is stored once). Deleting the active ' +
      'image of a type leaves that type with none active.',
    auth: 'session',
    response: V1AccountDeleteImagesResponseBody,
    errors: [400, 401, 422, 500],
  })
  async deleteImages(
    @CurrentPrincipal() principal: Principal,
    @Body() body: V1AccountDeleteImagesRequestBody,
  ): Promise<V1AccountDeleteImagesResponseBody> {
    await this.images.delete(principal.accountId, body.imageIds);
    return {};
  }
}
