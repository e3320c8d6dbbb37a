import { V1AccountGetInfoResponseBody } from '../dto/account-profile.dto';
import { AccountRoleEntity } from '../../account-records/entities/account-role.entity';
import { AccountEntity } from '../../account-records/entities/account.entity';
import { BadgeCosts } from '../../pricing/badge-costs';
import { accountRecord, toRoles } from '../../account-records/cards/account-record.mapper';

/**
 * The wire profile of an account as objects (ranks null; the caller assigns them and the images). `account.getInfo`
 * sends the same profile as text PostgreSQL writes (profile-text.ts); this is the definition that text is compared
 * with, byte for byte, in test/e2e/profile-text.e2e.spec.ts.
 */
export function toProfile(account: AccountEntity, roles: AccountRoleEntity[], costs?: BadgeCosts): V1AccountGetInfoResponseBody {
  // Assigned onto the record, not spread with it into a new literal (V8's slow path; see toAppBadge).
  return Object.assign(accountRecord(account, toRoles(roles), costs), {
    accountId: account.accountId,
    theme: account.theme,
    appPrivacy: account.appPrivacy,
    friendPrivacy: account.friendPrivacy,
    communityBan: account.communityBan,
    lastBanDate: account.lastBanDate?.toISOString() ?? null,
    createdAt: account.platformCreatedAt?.toISOString() ?? null,
    updatedAt: account.updatedAt?.toISOString() ?? null,
    nextAllowedTime: account.nextAllowedTime.toISOString(),
    lastQueueStatus: account.lastQueueStatus,
    shortlinkDomain: null,
    connections: [],
    currentRanks: null,
    currentBestRanks: null,
  });
}
