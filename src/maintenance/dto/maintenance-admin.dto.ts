import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MaintenanceEvent } from '../../site/dto/maintenance.dto';

const PATHS_DESCRIPTION =
  'Path prefixes this event covers (each starting with `/`); `*` alone means the whole site. Null or [] is `["*"]`.';
const paths = { type: 'array', items: { type: 'string', maxLength: 200, pattern: '^(\\*|/.*)$' }, maxItems: 50 } as const;

export const MAINTENANCE_TITLE_MAX = 200;
export const MAINTENANCE_MESSAGE_MAX = 5000;

export class CreateRequestBody {
  @ApiProperty({ description: 'Whether the toggle is on from the start.' }) enabled: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'Scheduled end; after `startsAt`.' }) endsAt?: string;
  @ApiProperty({ minLength: 1, maxLength: MAINTENANCE_MESSAGE_MAX, description: 'Markdown body shown below the headline.' })
  message: string;
  @ApiProperty({ ...paths, nullable: true, description: PATHS_DESCRIPTION }) paths: string[] | null;
  @ApiPropertyOptional({ format: 'date-time', description: 'Scheduled start.' }) startsAt?: string;
  @ApiProperty({ minLength: 1, maxLength: MAINTENANCE_TITLE_MAX, description: 'Short headline.' }) title: string;
}

export class UpdateRequestBody {
  @ApiProperty({ minLength: 1, maxLength: 40, example: 'mnt_1a2b3c4d' }) uid: string;
  @ApiPropertyOptional({ description: 'Remove the scheduled end (not with `endsAt`).' }) clearEndsAt?: boolean;
  @ApiPropertyOptional({ description: 'Remove the scheduled start (not with `startsAt`).' }) clearStartsAt?: boolean;
  @ApiPropertyOptional() enabled?: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) endsAt?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: MAINTENANCE_MESSAGE_MAX }) message?: string;
  @ApiPropertyOptional({ ...paths, description: PATHS_DESCRIPTION }) paths?: string[];
  @ApiPropertyOptional({ format: 'date-time' }) startsAt?: string;
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
