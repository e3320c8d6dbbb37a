import { ApiProperty } from '@nestjs/swagger';

/** `data:` of `stats-updated`: what one commit changed in the `V1Stats` counters. */
export class StatsUpdatedEvent {
  @ApiProperty({ format: 'date-time', example: '2026-01-01T12:00:00.000Z', description: 'When the change was committed.' })
  date: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { accountsUpdated: 1, badges: 212 },
    description: 'Keyed by `V1Stats` field name; add each value to that counter. Counters that did not change are absent.',
  })
  deltas: Record<string, number>;
}
