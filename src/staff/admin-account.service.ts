import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import { RoleRecord } from '../account-records/dto/profile-records.dto';
import { toDeveloperApp, toSession } from '../account-settings/mappers/settings.mapper';
import { ApiKeyService } from '../auth/api-key.service';
import { SessionService } from '../auth/session.service';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ConnectionsService } from '../connections/connections.service';
import { toResources } from '../sessions/mappers/session.mapper';
import { V1AdminGetAccountResponseBody } from './dto/admin.dto';
import { HistoryRow, toHistories } from './mappers/admin-account.mapper';

/** The newest entries of each history shown (the table keeps them all). */
export const HISTORY_SHOWN = 100;

/** Roles (the profile's order), granted resources, e-mail and the histories: one statement. */
const DETAILS_SQL = `
  SELECT (SELECT email FROM account_settings WHERE account_id = $1) AS email,
         (SELECT COALESCE(json_agg(json_build_object('role', r.role, 'rating', r.rating, 'extras', r.extras)
                                   ORDER BY r.rating DESC, r.role), '[]'::json)
            FROM account_roles r WHERE r.account_id = $1) AS roles,
         (SELECT COALESCE(json_object_agg(g.resource, g.value), '{}'::json) FROM account_resources g WHERE g.account_id = $1) AS granted,
         (SELECT COALESCE(json_agg(h ORDER BY h.id DESC), '[]'::json) FROM (
            (SELECT id, kind, old, new, changed_at FROM account_history WHERE account_id = $1 AND kind = 'name' ORDER BY id DESC LIMIT $2)
            UNION ALL
            (SELECT id, kind, old, new, changed_at FROM account_history WHERE account_id = $1 AND kind = 'vanity' ORDER BY id DESC LIMIT $2)
            UNION ALL
            (SELECT id, kind, old, new, changed_at FROM account_history WHERE account_id = $1 AND kind = 'location' ORDER BY id DESC LIMIT $2)
          ) h) AS history`;

interface DetailsRow {
  email: string | null;
  roles: RoleRecord[];
  granted: Record<string, string>;
  history: (Omit<HistoryRow, 'changed_at'> & { changed_at: string })[];
}

/** `admin.getAccount`: what staff see of an account, private parts included (never an API key's secret). */
@Injectable()
export class AdminAccountService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lookup: AccountLookupService,
    private readonly apiKeys: ApiKeyService,
    private readonly sessions: SessionService,
    private readonly connections: ConnectionsService,
  ) {}

  async get(selector: AccountSelector): Promise<V1AdminGetAccountResponseBody> {
    const account = await this.lookup.findTracked(selector);
    const id = account.accountId;
    const [[details], keys, sessions, connections] = await Promise.all([
      this.dataSource.query(DETAILS_SQL, [id, HISTORY_SHOWN]) as Promise<DetailsRow[]>,
      this.apiKeys.listForAccount(id),
      this.sessions.listActive(id),
      this.connections.list(id),
    ]);
    const limits = {
      developerAppsPerAccount: this.config.developerApps.perAccount,
      updateCooldownSeconds: this.config.queue.updateCooldownSeconds,
    };
    const history = details.history.map((row) => ({ ...row, changed_at: new Date(row.changed_at) }));
    return {
      avatar: account.avatar,
      city: account.cityName,
      connections,
      country: account.countryCode,
      developerApps: keys.map((key) => toDeveloperApp(key, undefined)),
      // `.invalid` addresses stand for "none given yet" (AccountAdminService.ensureAccount).
      email: details.email && !details.email.endsWith('.invalid') ? details.email : null,
      name: account.name,
      privacy: account.privacy,
      region: account.region,
      resources: toResources({ donated: Number(account.donated), roles: details.roles, granted: details.granted }, limits),
      roles: details.roles,
      sessions: sessions.map(toSession),
      state: account.stateName,
      vanity: account.siteVanity ?? null,
      ...toHistories(history),
    };
  }
}
