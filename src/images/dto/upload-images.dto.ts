import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IMAGE_TYPES, Image } from '../../account-records/dto/profile-records.dto';
import { IMAGE_LIMITS, MAX_DATA_LENGTH } from '../image-formats';

/** At most one image of each type per request. */
export const MAX_IMAGES_PER_REQUEST = IMAGE_TYPES.length;

const LIMITS_TEXT = Object.entries(IMAGE_LIMITS)
  .map(([type, limit]) => `\`${type}\` ≤ ${limit.maxBytes / 1024 / 1024} MiB and ${limit.maxWidth}×${limit.maxHeight} px`)
  .join(', ');

/** A real 2×2 PNG, so the examples run as they are (Swagger UI, clients trying the operation). */
export const EXAMPLE_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWM4YSNywkaEAUIBACF+BGFPob/gAAAAAElFTkSuQmCC';

export class V1AccountUploadedImage {
  @ApiProperty({
    // A real 2×2 PNG, so the example runs as it is (Swagger UI, clients trying the operation).
    example:
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWM4YSNywkaEAUIBACF+BGFPob/gAAAAAElFTkSuQmCC',
    maxLength: MAX_DATA_LENGTH,
    description:
      'The image, base64 (a `data:…;base64,` prefix is accepted and ignored). PNG, JPEG, GIF or WebP, judged by content. ' +
      `Per type: ${LIMITS_TEXT}; \`avatar_frame\` and \`animated_avatar\` keep up to ${IMAGE_LIMITS.animated_avatar.maxFrames} frames, ` +
      'the others the first frame. Re-encoded without metadata.',
  })
  // The length is checked per type by the service: a validation error would echo the whole string back.
  data: string;

  @ApiProperty({ enum: IMAGE_TYPES, example: 'avatar' })
  type: (typeof IMAGE_TYPES)[number];
}

export class V1AccountUploadImagesRequestBody {
  @ApiProperty({
    type: [V1AccountUploadedImage],
    nullable: true,
    maxItems: MAX_IMAGES_PER_REQUEST,
    description: 'Each becomes the active image of its type; at most one per type. All are stored, or none.',
  })
  @Type(() => V1AccountUploadedImage)
  images: V1AccountUploadedImage[] | null;
}

export class V1AccountUploadImagesResponseBody {
  @ApiProperty({ type: [Image], nullable: true, description: 'The stored images, in request order.' })
  images: Image[] | null;
}
