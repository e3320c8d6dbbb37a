import { ApiProperty } from '@nestjs/swagger';

/**
 * The `data:` of every stream's heartbeat event (`heartbeat`, `activity-heartbeat`, `stats-heartbeat`): a counter
 * from 1. Payload classes of stream events exist for the document only; the streams build plain objects.
 */
export class StreamHeartbeat {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1, description: 'Counts the heartbeats of this connection, from 1.' })
  heartbeat: number;
}
