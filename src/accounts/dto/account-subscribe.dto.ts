import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { INT32_MAX } from '../../common/wire/bounds';

/**
 * Query of `GET /v1/account.subscribe?accountId=…`. The validation pipe reads `accountId` as a plain decimal
 * only (`0x10`, `1e3`, `16abc` → 422), against this class's schema in the OpenAPI document.
 */
export class AccountSubscribeQuery {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, example: 123456 })
  @IsInt()
  @Min(0)
  @Max(INT32_MAX)
  accountId: number;
}
