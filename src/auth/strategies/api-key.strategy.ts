import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { tooManyRequests, unauthorized } from '../../common/problem/problem.exception';
import { ApiKeyService } from '../api-key.service';
import { Principal } from '../principal';

/** Bearer tokens that are developer API keys (`sk_…`). Sessions are another strategy with its own lookup. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'api-key') {
  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  async validate(token: string): Promise<Principal> {
    const result = await this.apiKeys.check(token, true);
    if (!result) throw unauthorized('The bearer token is not a valid API key.');
    if (result.ok) return { kind: 'api-key', accountId: result.key.accountId, keyId: result.key.keyId };
    if (result.outcome === 'RATE_LIMITED') {
      throw tooManyRequests('This API key made too many requests; retry later.', result.retryAfterSeconds ?? 60);
    }
    throw unauthorized(result.outcome === 'DISABLED' ? 'This API key has been revoked.' : 'The bearer token is not a valid API key.');
  }
}
