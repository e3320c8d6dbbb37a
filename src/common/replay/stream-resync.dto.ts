import { ApiProperty } from '@nestjs/swagger';

/**
 * The `data:` of `resync-required`: the stream could not resume from the client's `Last-Event-ID` (malformed, or
 * no longer in the replay buffer) and continues from now. An extension of this service (the wire reference leaves
 * resumption open); the event carries an `id:` like every replayable event.
 */
export class StreamResyncRequired {
  @ApiProperty({
    enum: ['malformed', 'expired', 'unknown'],
    example: 'expired',
    description:
      '`malformed`: not an id this service sends; `expired`: older than the oldest event kept; `unknown`: not in the buffer (a ' +
      'future or forged id, or a per-account buffer that lapsed because nobody was subscribed).',
  })
  reason: 'malformed' | 'expired' | 'unknown';

  @ApiProperty({
    type: [String],
    maxItems: 8,
    example: ['account.getInfo', 'account.updateProgress'],
    description: 'The operations that rebuild what may have been missed; empty when the stream itself resends the full state next.',
  })
  refetch: string[];
}
