import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, Repository } from 'typeorm';
import { AccountLookupService, AccountSelector } from '../account-records/account-lookup.service';
import { forbidden } from '../common/problem/problem.exception';
import { V1AccountListOwnedGroupsResponseBody } from './dto/groups.dto';
import { GroupEntity } from './entities/group.entity';
import { toOwnedGroup } from './mappers/group.mapper';

/** The most groups one answer lists (the wire shape has no paging; accounts owning more are vanishingly rare). */
export const MAX_OWNED_GROUPS = 1000;

/**
 * `account.listOwnedGroups`: the groups whose members list (read by the worker's group refresh) names the account
 * first. A private profile hides its groups on the platform (GetUserGroupList fails), so it is a 403 here too;
 * hidden groups are never listed (their members, and so their owner, cannot be read).
 */
@Injectable()
export class OwnedGroupsService {
  constructor(
    private readonly lookup: AccountLookupService,
    @InjectRepository(GroupEntity) private readonly groups: Repository<GroupEntity>,
  ) {}

  async list(selector: AccountSelector): Promise<V1AccountListOwnedGroupsResponseBody> {
    const account = await this.lookup.findTracked(selector);
    if (account.privacy === 'private') throw forbidden(`The groups of account ${account.accountId} are private.`);
    const groups = await this.groups.find({
      where: { ownerAccountId: account.accountId, privacy: Not('hidden') },
      order: { memberCount: 'DESC', gid: 'ASC' },
      take: MAX_OWNED_GROUPS,
    });
    return { groups: groups.map(toOwnedGroup) };
  }
}
