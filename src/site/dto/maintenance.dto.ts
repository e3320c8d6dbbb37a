import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class MaintenanceEvent {
  @ApiPropertyOptional({ format: 'uri', readOnly: true }) $schema?: string;
  @ApiProperty({ example: 'mnt_1a2b3c4d' }) uid: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'Markdown.' }) message: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: [String], nullable: true, description: 'Covered path prefixes; `*` is the whole site.' }) paths: string[] | null;
  @ApiPropertyOptional({ format: 'date-time' }) startsAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) endsAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional({ type: 'integer' }) createdBy?: number;
}

/** `data:` of `maintenance-changed`: the full current set of broadcasts (on connect and after every change). */
export class MaintenanceChangedEvent {
  @ApiProperty({ type: [MaintenanceEvent], nullable: true }) items: MaintenanceEvent[] | null;
}
