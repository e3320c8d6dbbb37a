import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { INT32_MAX } from '../../common/wire/bounds';

/**
 * Query of `GET /v1/account.subscribe?accountId=…`. The validation pipe reads `accountId` as a plain decimal
 * only (`0x10`, `1e3`, `16abc` → 422), against this class's schema in the OpenAPI document.
 */
export class AccountSubscribeQuery {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, example: 1 })
  @Type(() => Number)
  accountId: number;

  /** A stream ticket, redeemed by the credential guard before validation (see `auth.createStreamTicket`). */
  @ApiPropertyOptional({
    maxLength: 100,
    description: 'A stream ticket from `auth.createStreamTicket`, for clients that cannot send headers.',
  })
  ticket?: string;

  /** Read by the stream (`@LastEventId`), declared here so the whitelist admits it; any text → resync, not 422. */
  @ApiPropertyOptional({
    maxLength: 64,
    description: 'The id of the last event received, for clients that cannot send `Last-Event-ID`; the header wins.',
  })
  lastEventId?: string;
}
