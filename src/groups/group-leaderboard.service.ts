import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { LeaderboardAccount } from '../account-records/dto/leaderboard-account.dto';
import { LeaderboardAccountsService } from '../account-records/cards/leaderboard-accounts.service';
import { rankWindow } from '../common/wire/rank-window';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import {
  V1GroupLeaderboardGroup,
  V1LeaderboardGetGroupLeaderboardRequestBody as Request,
  V1LeaderboardGetGroupLeaderboardResponseBody as Response,
} from './dto/groups.dto';
import { GroupEntity } from './entities/group.entity';
import { GroupBoard } from './group-board.service';
import { toLeaderboardGroup, unreadGroup } from './mappers/group.mapper';

/** The widest window of one request, and the default width (as on the account boards). */
export const MAX_GROUP_WINDOW = 100;
export const DEFAULT_GROUP_WINDOW = 10;

/**
 * `leaderboard.getGroupLeaderboard` (`most_members`): a rank window of the group board (GroupBoard, O(log N) in
 * Redis), the rows of its groups and of the service's own group by primary key, and their owners' account cards.
 */
@Injectable()
export class GroupLeaderboardService {
  constructor(
    private readonly board: GroupBoard,
    private readonly accounts: LeaderboardAccountsService,
    @InjectRepository(GroupEntity) private readonly groups: Repository<GroupEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(request: Request): Promise<Response> {
    const [start, end] = rankWindow(request, DEFAULT_GROUP_WINDOW, MAX_GROUP_WINDOW);
    const own = this.config.groups.serviceGroupId;
    const [window, ownRank] = await Promise.all([this.board.window(start, end), this.board.rankOf(own)]);
    const rows = await this.groups.find({ where: { gid: In([...window.groups.map((entry) => entry.gid), own]) } });
    const byGid = new Map(rows.map((row) => [row.gid, row]));
    const owners = await this.owners(rows);
    const toGroup = (row: GroupEntity, rank: number): V1GroupLeaderboardGroup =>
      toLeaderboardGroup(row, rank, (row.ownerAccountId !== null && owners.get(row.ownerAccountId)) || null);
    return {
      // A group placed but whose row is gone (deleted by hand) has nothing to show and is left out.
      groups: window.groups.filter((entry) => byGid.has(entry.gid)).map((entry) => toGroup(byGid.get(entry.gid)!, entry.rank)),
      steamSetsGroup: toGroup(byGid.get(own) ?? unreadGroup(own), ownRank ?? 0),
      rankedOutOf: window.size,
    };
  }

  /** The owners this service tracks, as account cards; accounts that chose to be hidden are left out (null owner). */
  private async owners(rows: GroupEntity[]): Promise<Map<number, LeaderboardAccount>> {
    const ids = [...new Set(rows.map((row) => row.ownerAccountId).filter((id): id is number => id !== null))];
    if (!ids.length) return new Map();
    const [cards, hidden]: [Map<number, LeaderboardAccount>, { account_id: number }[]] = await Promise.all([
      this.accounts.byIds(ids),
      this.groups.query('SELECT account_id FROM account_settings WHERE hidden AND account_id = ANY($1)', [ids]),
    ]);
    for (const { account_id } of hidden) cards.delete(account_id);
    return cards;
  }
}
