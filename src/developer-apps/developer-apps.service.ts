import { Inject, Injectable } from '@nestjs/common';
import { DeveloperApp } from '../account-settings/dto/account-settings.dto';
import { toDeveloperApp } from '../account-settings/mappers/settings.mapper';
import { ApiKeyService } from '../auth/api-key.service';
import { ActionThrottle, ThrottleRule } from '../auth/throttle/action-throttle.service';
import { notFound, ProblemException } from '../common/problem/problem.exception';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import {
  V1AccountCreateDeveloperAppBody,
  V1AccountCreateDeveloperAppRequest,
  V1AccountUpdateDeveloperAppRequest,
} from './dto/developer-apps.dto';

/** A developer app is one API key row: its name, description and environment, and the key itself. */
@Injectable()
export class DeveloperAppsService {
  private readonly changes: ThrottleRule;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: ApiKeyService,
    private readonly throttle: ActionThrottle,
  ) {
    this.changes = {
      action: 'developer-app-changes',
      limit: config.developerApps.changesPerHour,
      windowSeconds: 3600,
      detail: 'This account changed its developer apps too often; retry after the Retry-After delay.',
    };
  }

  /**
   * One more app, within the account's allowance. Past it the answer is 409, not 422: the request itself is
   * well-formed and would succeed for an account with room; it conflicts with the account's current state, and
   * deleting an app resolves it.
   */
  async create(accountId: number, input: V1AccountCreateDeveloperAppRequest): Promise<V1AccountCreateDeveloperAppBody> {
    await this.throttle.take(this.changes, accountId);
    const created = await this.keys.createWithin({ accountId, ...input }, this.config.developerApps.perAccount);
    if (!('key' in created)) {
      throw new ProblemException(409, `An account may hold ${created.limit} developer apps; delete one before creating another.`, {
        title: 'Too many developer apps',
      });
    }
    return { developerApp: toDeveloperApp(created.key, undefined), apiKey: created.secret };
  }

  async update(accountId: number, input: V1AccountUpdateDeveloperAppRequest): Promise<DeveloperApp> {
    await this.throttle.take(this.changes, accountId);
    const { keyId, ...changes } = input;
    const key = await this.keys.updateOwned(accountId, keyId, changes);
    if (!key) throw notFound(`This account has no developer app ${keyId}.`);
    return toDeveloperApp(key, undefined);
  }

  /** Revokes the app's key; once this returns, no API process accepts it (see ApiKeyService.revoke). */
  async delete(accountId: number, keyId: string): Promise<void> {
    await this.throttle.take(this.changes, accountId);
    if (!(await this.keys.revoke(keyId, accountId))) throw notFound(`This account has no developer app ${keyId}.`);
  }
}
