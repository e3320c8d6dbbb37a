import { ApiProperty } from '@nestjs/swagger';
import { INT32_MAX } from '../../common/wire/bounds';

/** Most ids one staff queue request names. */
export const MAX_QUEUED_IDS = 100;

const ids = (description: string) =>
  ApiProperty({
    type: 'array',
    items: { type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX },
    minItems: 1,
    maxItems: MAX_QUEUED_IDS,
    nullable: true,
    description,
  });

export class V1AppQueueUpdateRequestBody {
  @ids('App ids to requeue') appIds: number[] | null;
}

export class V1GroupQueueUpdateRequestBody {
  @ids('Group ids to requeue') groupIds: number[] | null;
}

export class V1AccountQueueInventoryRefreshRequestBody {
  @ids('Account ids to refresh inventory for') accountIds: number[] | null;
}
