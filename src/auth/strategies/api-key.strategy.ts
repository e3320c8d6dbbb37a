import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { unauthorized } from '../../common/problem/problem.exception';
import { ApiKeyService } from '../api-key.service';
import { Principal } from '../../common/auth/principal';

export const API_KEY_STRATEGY = 'api-key';

/**
 * Developer API keys (`sk_…`) from the `Authorization: Bearer` header, parsed by passport-http-bearer. The
 * guard refuses `access_token` in the query string or body before passport runs, so only the header reaches it.
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, API_KEY_STRATEGY) {
  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  /**
   * `false` (passport's "fail") for a token that is not an API key: the session strategy gets it next.
   * An `sk_` token that does not check out is refused here, and counted against its key by ApiKeyService.
   */
  async validate(token: string): Promise<Principal | false> {
    if (!token.startsWith('sk_')) return false;
    const result = await this.apiKeys.check(token);
    if (result?.ok) return { kind: 'api-key', accountId: result.key.accountId, keyId: result.key.keyId };
    throw unauthorized(result?.outcome === 'DISABLED' ? 'This API key has been revoked.' : 'The bearer token is not a valid API key.');
  }
}
