import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

export class ErrorDetailDto {
  @ApiPropertyOptional({ description: 'Where the problem is, e.g. `body.id.steamId64`.' })
  location?: string;

  @ApiPropertyOptional()
  message?: string;

  @ApiPropertyOptional({ description: 'The offending value.' })
  value?: unknown;
}

/** RFC 9457 problem details, the body of every error response. */
@ApiSchema({ name: 'ErrorModel' })
export class ProblemDetailsDto {
  @ApiPropertyOptional({ format: 'uri', readOnly: true })
  $schema?: string;

  @ApiPropertyOptional({ format: 'uri', default: 'about:blank' })
  type?: string;

  // No property examples here: each problem response carries a whole example of its own status.
  @ApiPropertyOptional()
  title?: string;

  @ApiPropertyOptional({ format: 'int64' })
  status?: number;

  @ApiPropertyOptional()
  detail?: string;

  @ApiPropertyOptional({ format: 'uri' })
  instance?: string;

  @ApiProperty({ type: [ErrorDetailDto], nullable: true, required: false })
  errors?: ErrorDetailDto[] | null;
}
