import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MaintenanceEvent } from '../../site/dto/maintenance.dto';

const PATHS_DESCRIPTION =
  'Path prefixes this event covers (each starting with `/`); `*` alone means the whole site. Null or [] is `["*"]`.';
const paths = {
  type: 'array',
  items: { type: 'string', maxLength: 200, pattern: '^(\\*|/.*)$', example: '/leaderboards' },
  maxItems: 50,
} as const;

/** RFC 3339 date-times (the validator checks patterns, not formats; the service checks the date exists). */
const dateTime = (description?: string) =>
  ApiPropertyOptional({
    format: 'date-time',
    maxLength: 35,
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
    example: '2099-01-01T00:00:00Z',
    description,
  });

export const MAINTENANCE_TITLE_MAX = 200;
export const MAINTENANCE_MESSAGE_MAX = 5000;

export class CreateRequestBody {
  @ApiProperty({ description: 'Whether the toggle is on from the start.' }) enabled: boolean;
  @dateTime('Scheduled end; after `startsAt`.') endsAt?: string;
  @ApiProperty({ minLength: 1, maxLength: MAINTENANCE_MESSAGE_MAX, description: 'Markdown body shown below the headline.' })
  message: string;
  @ApiProperty({ ...paths, nullable: true, description: PATHS_DESCRIPTION }) paths: string[] | null;
  @dateTime('Scheduled start.') startsAt?: string;
  @ApiProperty({ minLength: 1, maxLength: MAINTENANCE_TITLE_MAX, description: 'Short headline.' }) title: string;
}

export class UpdateRequestBody {
  @ApiProperty({ minLength: 1, maxLength: 40, example: 'mnt_1a2b3c4d' }) uid: string;
  @ApiPropertyOptional({ description: 'Remove the scheduled end (not with `endsAt`).' }) clearEndsAt?: boolean;
  @ApiPropertyOptional({ description: 'Remove the scheduled start (not with `startsAt`).' }) clearStartsAt?: boolean;
  @ApiPropertyOptional() enabled?: boolean;
  @dateTime('Scheduled end; after `startsAt`.') endsAt?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: MAINTENANCE_MESSAGE_MAX }) message?: string;
  @ApiPropertyOptional({ ...paths, description: PATHS_DESCRIPTION }) paths?: string[];
  @dateTime('Scheduled start.') startsAt?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: MAINTENANCE_TITLE_MAX }) title?: string;
}

export class DeleteRequestBody {
  @ApiProperty({ minLength: 1, maxLength: 40, example: 'mnt_1a2b3c4d' }) uid: string;
}

export class DeleteResponseBody {
  @ApiPropertyOptional({ format: 'uri', readOnly: true }) $schema?: string;
  @ApiProperty() ok: boolean;
}

export class ListAllResponseBody {
  @ApiPropertyOptional({ format: 'uri', readOnly: true }) $schema?: string;
  @ApiProperty({ type: [MaintenanceEvent], nullable: true }) items: (MaintenanceEvent | null)[] | null;
}

export class ListResponseBody {
  @ApiPropertyOptional({ format: 'uri', readOnly: true }) $schema?: string;
  @ApiProperty({ type: [MaintenanceEvent], nullable: true }) items: (MaintenanceEvent | null)[] | null;
}
