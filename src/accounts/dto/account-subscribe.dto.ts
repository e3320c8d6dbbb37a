import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Query of `GET /v1/account.subscribe?accountId=…`. */
export class AccountSubscribeQuery {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 1 })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2147483647)
  accountId: number;

  /**
   * A stream ticket, redeemed by the credential guard before validation; declared so that the pipe's
   * unknown-field check lets it through. Documented for every stream by `WireStream`, not here.
   */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  ticket?: string;
}
