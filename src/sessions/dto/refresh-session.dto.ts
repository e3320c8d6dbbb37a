import { ApiProperty } from '@nestjs/swagger';

export class V1AccountRefreshSessionRequest {
  @ApiProperty({ minLength: 1, maxLength: 256, description: 'The refresh token issued with the current session.' })
  refreshToken: string;
}

export class V1AccountRefreshSessionBody {
  @ApiProperty({ example: 'auth_', description: 'The new bearer token.' }) sessionToken: string;
  @ApiProperty({ format: 'date-time' }) sessionExpiresAt: string;
  @ApiProperty({ description: 'The new refresh token; the one sent is no longer valid.' }) refreshToken: string;
  @ApiProperty({ format: 'date-time' }) refreshExpiresAt: string;
}
