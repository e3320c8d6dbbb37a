import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class UpdateStep {
  @ApiProperty({ example: 'badges' }) name: string;
  @ApiProperty({ enum: ['pending', 'running', 'done', 'skipped', 'failed'] }) status: string;
  @ApiPropertyOptional({ format: 'date-time' }) startedAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) finishedAt?: string;
}

export class UpdateProgressError {
  @ApiProperty() category: string;
  @ApiProperty({ description: 'Whether retrying now may succeed.' }) retryable: boolean;
}

/** Progress of one update run. */
export class UpdateProgress {
  @ApiProperty({ type: 'integer' }) accountId: number;
  @ApiProperty({ description: 'Id of the run; a different value means a new run.' }) runId: string;
  @ApiProperty({ enum: ['undefined', 'pending', 'in_progress', 'completed', 'failed'] }) status: string;
  @ApiProperty() currentStep: string;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100 }) percent: number;
  @ApiProperty({ type: [UpdateStep], nullable: true }) steps: UpdateStep[] | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) queuedAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) startedAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) finishedAt?: string;
  @ApiPropertyOptional({ type: UpdateProgressError }) error?: UpdateProgressError;
}

export class V1AccountUpdateProgressResponseBody {
  @ApiPropertyOptional({ type: UpdateProgress, description: 'Absent when the account has no known run.' })
  progress?: UpdateProgress;
}
