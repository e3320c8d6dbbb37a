import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ApiKeyUsageService } from '../auth/api-key-usage.service';
import { ApiKeyService } from '../auth/api-key.service';
import { SessionService } from '../auth/session.service';
import { notFound } from '../common/problem/problem.exception';
import { V1AccountGetSettingsBody } from './dto/account-settings.dto';
import { AccountSettingsEntity } from '../account-records/entities/account-settings.entity';
import { AccountEntity } from '../account-records/entities/account.entity';
import { chosenRoleOf, toSettingsBody } from './mappers/settings.mapper';
import { HeldRole, donorTier } from '../account-records/donor-tiers';
import { AccountImagesService } from '../images/account-images.service';
import { ConnectionsService } from '../connections/connections.service';

/** The signed-in user's own account: settings, developer apps with their analytics, sessions, images. */
@Injectable()
export class AccountSettingsService {
  constructor(
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    @InjectRepository(AccountSettingsEntity) private readonly settings: Repository<AccountSettingsEntity>,
    private readonly apiKeys: ApiKeyService,
    private readonly usage: ApiKeyUsageService,
    private readonly sessions: SessionService,
    private readonly images: AccountImagesService,
    private readonly connections: ConnectionsService,
  ) {}

  async getSettings(accountId: number): Promise<V1AccountGetSettingsBody> {
    const [account, settings] = await Promise.all([
      this.accounts.findOne({ where: { accountId } }),
      this.settings.findOne({ where: { accountId } }),
    ]);
    if (!account || !settings) throw notFound(`Account ${accountId} has no settings.`);
    const [keys, sessions, images, connections] = await Promise.all([
      this.apiKeys.listForAccount(accountId),
      this.sessions.listActive(accountId),
      this.images.list(accountId),
      this.connections.list(accountId),
    ]);
    const { perKey, total } = await this.usage.analytics(keys.map((key) => key.keyId));
    const roles: HeldRole[] = await this.accounts.query(
      'SELECT role, extras FROM account_roles WHERE account_id = $1 ORDER BY rating DESC, role ASC',
      [accountId],
    );
    const chosenRole = chosenRoleOf(settings, roles, donorTier(Number(account.donated), roles));
    return toSettingsBody({ account, settings, keys, sessions, perKey, total, images, connections, chosenRole });
  }
}
