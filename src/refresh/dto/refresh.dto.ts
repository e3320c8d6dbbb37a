import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AccountSearch } from '../../account-records/dto/account-search.dto';

export class V1AccountQueueUpdateRequest extends AccountSearch {
  @ApiPropertyOptional({ default: false, description: 'Skip the cooldown; staff only.' })
  force?: boolean;
}

export class V1AccountRefreshInventoryResponseBody {
  @ApiProperty({ type: 'integer', description: 'Earliest next refresh, Unix seconds.' }) nextRefreshAt: number;
}
