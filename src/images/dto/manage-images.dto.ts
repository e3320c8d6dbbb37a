import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IMAGE_TYPES, Image } from '../../account-records/dto/profile-records.dto';
import { KEPT_PER_TYPE } from '../image-formats';

/** As many as an account can hold: every kept image of every type. */
export const MAX_IMAGES_PER_CHANGE = KEPT_PER_TYPE * IMAGE_TYPES.length;

/** `img_` and the 12 base64url characters the service gives (a little room left for other id lengths). */
const IMAGE_ID = /^img_[A-Za-z0-9_-]{1,40}$/;

export class V1AccountListImagesResponseBody {
  @ApiProperty({
    type: [Image],
    nullable: true,
    description: 'The images the account has, by type, the active one first, then newest first.',
  })
  images: Image[] | null;
}

export class V1AccountUpdateImage {
  @ApiProperty({ example: 'img_AbCdEfGhIjKl', maxLength: 44, pattern: IMAGE_ID.source, description: 'The image id to update.' })
  imageId: string;

  @ApiProperty({
    example: true,
    description:
      'Whether the image is active or not, only one of each type can be active: activating one deactivates the others of its type.',
  })
  active: boolean;
}

export class V1AccountUpdateImageRequestBody {
  @ApiProperty({
    type: [V1AccountUpdateImage],
    nullable: true,
    maxItems: MAX_IMAGES_PER_CHANGE,
    description: 'The images to update; all are changed, or none (an unknown id is a 404).',
  })
  @Type(() => V1AccountUpdateImage)
  images: V1AccountUpdateImage[] | null;
}

export class V1AccountUpdateImageResponseBody {}

export class V1AccountDeleteImagesRequestBody {
  @ApiProperty({
    type: [String],
    nullable: true,
    maxItems: MAX_IMAGES_PER_CHANGE,
    items: { type: 'string', maxLength: 44, pattern: IMAGE_ID.source, example: 'img_AbCdEfGhIjKl' },
    example: ['img_AbCdEfGhIjKl'],
    description: 'The images ids to delete. Ids the account does not have are ignored (deleting is idempotent).',
  })
  imageIds: string[] | null;
}

export class V1AccountDeleteImagesResponseBody {}
