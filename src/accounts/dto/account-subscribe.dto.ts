import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/** Query of `GET /v1/account.subscribe?accountId=…`. */
export class AccountSubscribeQuery {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 123456 })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2147483647)
  accountId: number;
}
