import { ApiProperty } from '@nestjs/swagger';

/**
 * The platform's positive assertion, as its redirect to `openid.return_to` carried it: every `openid.<name>` query
 * parameter becomes the body field `openid_<name>` (the web app copies them over unchanged).
 */
export class V1AccountLoginRequest {
  @ApiProperty({ maxLength: 100, example: 'http://specs.openid.net/auth/2.0' })
  openid_ns: string;

  @ApiProperty({ maxLength: 20, example: 'id_res', description: 'A positive assertion is `id_res`.' })
  openid_mode: string;

  @ApiProperty({ maxLength: 300, example: 'http://127.0.0.1:3100/openid/login', description: 'Must be the configured platform endpoint.' })
  openid_op_endpoint: string;

  @ApiProperty({ maxLength: 300, example: 'https://steamcommunity.com/openid/id/76561197960265729' })
  openid_claimed_id: string;

  @ApiProperty({ maxLength: 300, example: 'https://steamcommunity.com/openid/id/76561197960265729' })
  openid_identity: string;

  @ApiProperty({ maxLength: 2000, example: 'http://localhost:3000/', description: 'Must be on the web app’s origin (`WEB_APP_ORIGIN`).' })
  openid_return_to: string;

  @ApiProperty({
    maxLength: 255,
    example: '2026-11-23T10:44:01Z1a2b3c4d',
    description: 'UTC timestamp then unique characters; usable once.',
  })
  openid_response_nonce: string;

  @ApiProperty({ maxLength: 255, example: '1234567890' })
  openid_assoc_handle: string;

  @ApiProperty({ maxLength: 300, example: 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle' })
  openid_signed: string;

  @ApiProperty({ maxLength: 200, example: 'W0mM3r7g0xQ9sJ5h2k1l8n6p4q3r2s1t0u9v8w7x6y5=' })
  openid_sig: string;
}

export class V1AccountLoginBody {
  @ApiProperty({ type: 'integer', example: 1, description: 'The signed-in account.' }) accountId: number;
  @ApiProperty({ description: 'True when this sign-in created the account (its first refresh is queued).' }) newAccount: boolean;
  @ApiProperty({ example: 'auth_', description: 'The bearer token of the new session.' }) sessionToken: string;
  @ApiProperty({ format: 'date-time' }) sessionExpiresAt: string;
  @ApiProperty({ example: 'rt_', description: 'Swap it for a new session with `account.refreshSession`.' }) refreshToken: string;
  @ApiProperty({ format: 'date-time' }) refreshExpiresAt: string;
}
