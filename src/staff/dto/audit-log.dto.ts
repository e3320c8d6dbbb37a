import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INT32_MAX } from '../../common/wire/bounds';
import { CURSOR_MAX_LENGTH, CURSOR_PATTERN } from '../../common/wire/cursor';

export const AUDIT_PAGE_MAX = 200;

export class AdminListAuditLogRequestBody {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: INT32_MAX,
    description: 'Only the entries about this account.',
  })
  accountId?: number;

  @ApiPropertyOptional({ maxLength: CURSOR_MAX_LENGTH, pattern: CURSOR_PATTERN, description: 'The `nextCursor` of the previous page.' })
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: AUDIT_PAGE_MAX, default: 50 })
  limit?: number;
}

export class AuditLogEntry {
  @ApiProperty({ example: '42', description: 'Increasing with time.' }) id: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The staff account that made the change; null for the operator’s CLI.' })
  actorAccountId: number | null;
  @ApiProperty({ enum: ['api', 'cli'] }) via: 'api' | 'cli';
  @ApiProperty({ example: 'admin.updateRoles', description: 'The operation or CLI command.' }) action: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The account changed, if an account was.' }) targetAccountId: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The object changed when it is not an account (a maintenance event’s uid).' })
  targetId: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The state before the change.' })
  before: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The state after (null after a delete).' })
  after: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class AdminListAuditLogResponseBody {
  @ApiPropertyOptional({ format: 'uri', readOnly: true }) $schema?: string;
  @ApiProperty({ type: [AuditLogEntry] }) entries: AuditLogEntry[];
  @ApiProperty({ type: 'string', nullable: true, description: 'Pass as `cursor` for older entries; null on the last page.' })
  nextCursor: string | null;
}
