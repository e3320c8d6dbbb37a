import { ApiProperty } from '@nestjs/swagger';
import { CONNECTION_PROVIDERS } from '../../account-records/dto/profile-records.dto';
import { CONNECTION_ID_PATTERN, type ConnectionProvider } from '../connection-limits';

/** An OAuth code is opaque and provider-sized (tens to a few hundred characters); a domain name is at most 253. */
const CODE_MAX_LENGTH = 1024;

const connectionIdProperty = (what: string) =>
  ApiProperty({ example: 'con_Q2hhbmdlTWVJbUFuRXhhbX', maxLength: 26, pattern: CONNECTION_ID_PATTERN.source, description: what });

export class V1AccountCreateConnectionRequestBody {
  @ApiProperty({
    minLength: 1,
    maxLength: CODE_MAX_LENGTH,
    example: 'example.com',
    description:
      'For an OAuth provider: the `code` the provider redirected the user back with (the authorization-code flow; the ' +
      'service exchanges it with the same `redirect_uri`, `OAUTH_REDIRECT_URI`). For `domain`: the domain name.',
  })
  code: string;

  @ApiProperty({ enum: CONNECTION_PROVIDERS, example: 'domain', description: 'The provider to connect with.' })
  provider: ConnectionProvider;
}

export class V1AccountCreateConnectionResponseBody {
  @ApiProperty({
    example: 'bR7xk2Qw9LmZpT4vYc8N',
    description:
      'For a domain: the code to publish, as the TXT record `_badge-stats.<domain>` = `badge-stats-verification=<code>` ' +
      'or as the file `https://<domain>/.well-known/badge-stats-verification.txt`; then call `account.verifyConnection`. ' +
      'Empty for OAuth connections (verified by the exchange).',
  })
  code: string;

  @ApiProperty({
    type: String,
    required: false,
    nullable: true,
    example: 'con_Q2hhbmdlTWVJbUFuRXhhbX',
    description: 'Public ID of the new connection (domains and OAuth alike).',
  })
  connectionId?: string | null;
}

export class V1AccountVerifyConnectionRequestBody {
  @connectionIdProperty('The connection id to verify.')
  connectionId: string;
}

export class V1AccountVerifyConnectionResponseBody {}

export class V1AccountUpdateConnectionRequestBody {
  @connectionIdProperty('The connection id to update.')
  connectionId: string;

  @ApiProperty({ example: true, description: 'Whether the connection should be hidden from the public profile (`account.getInfo`).' })
  hidden: boolean;
}

export class V1AccountUpdateConnectionResponseBody {}

export class V1AccountReconnectRequestBody {
  @ApiProperty({
    minLength: 1,
    maxLength: CODE_MAX_LENGTH,
    example: 'a-new-code-from-the-provider',
    description: 'The code from the oauth2 provider to re-verify.',
  })
  code: string;

  @connectionIdProperty('The connection id to reconnect.')
  connectionId: string;
}

export class V1AccountReconnectResponseBody {}

export class V1AccountDeleteConnectionRequestBody {
  @connectionIdProperty('The connection id to delete.')
  connectionId: string;
}

export class V1AccountDeleteConnectionResponseBody {}
