import { ApiProperty } from '@nestjs/swagger';
import { UpdateProgress } from './update-progress.dto';

/** `data:` of `account-updated`: the queue or update status of the account changed. */
export class AccountUpdatedEvent {
  @ApiProperty({ type: 'integer', format: 'int32', example: 1 }) accountId: number;
  @ApiProperty({
    description: 'A free string; the service sends `pending`, `in_progress`, `completed` and `failed`.',
    example: 'in_progress',
  })
  status: string;
}

/** `data:` of `account-update-progress`: a step of the account's update run started or finished. */
export class AccountUpdateProgressEvent {
  @ApiProperty({ type: UpdateProgress }) progress: UpdateProgress;
}

/** `data:` of `account-view-tick`: the profile was viewed (`account.getInfo`). */
export class AccountViewTickEvent {
  @ApiProperty({ type: 'integer', format: 'int32', example: 1 }) accountId: number;
  @ApiProperty({ type: 'integer', format: 'int32', example: 1, description: 'Views to add to the total.' }) totalDelta: number;
}

/**
 * `data:` of `watch-fired`: one of the account's own watches fired (src/watches). Sent only on streams opened with a
 * credential of that account: the watches are its user's.
 */
export class AccountWatchFiredEvent {
  @ApiProperty({ type: 'integer', format: 'int32', example: 1, description: 'The owner of the watch (the streamed account).' })
  accountId: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The watch as `account.listWatches` shows it, with its `firedAt` and what was seen (`fired`).',
  })
  watch: Record<string, unknown>;
}
