import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { GroupPrivacy } from '../group.enums';

const bigintAsNumber = { to: (v: number) => v, from: (v: string) => Number(v) };

/**
 * A platform group as its community members list last showed it: read once per refresh interval by the worker's
 * group refresh (src/refresh), however many tracked accounts are members. `account_groups` holds who is in it
 * (by gid, as text); this row holds what the group is. The owner is the list's first member.
 */
@Entity('groups')
// account.listOwnedGroups: the groups of one owner (a handful), by one index range.
@Index('ix_groups_owner', ['ownerAccountId'], { where: 'owner_account_id IS NOT NULL' })
export class GroupEntity {
  /** The 32-bit gid (gid64 = 103582791429521408 + gid); bigint because gids are unsigned. */
  @PrimaryColumn('bigint', { transformer: bigintAsNumber })
  gid: number;

  @Column('text', { default: '' })
  name: string;

  /** The group's custom URL name on the platform (`groupURL`). */
  @Column('text', { default: '' })
  vanity: string;

  /** The group's abbreviation: on its HTML page only, which is not read yet, so '' (see docs/architecture.md). */
  @Column('text', { default: '' })
  tag: string;

  /** The avatar's file name (`<hash>.jpg`). */
  @Column('text', { default: '' })
  avatar: string;

  @Column('text', { default: 'public' })
  privacy: GroupPrivacy;

  /** Members on the platform (not only tracked ones): the score of the `most_members` board. */
  @Column('integer', { default: 0 })
  memberCount: number;

  /** The first member of the list, as a 64-bit id; null while unknown (never read, hidden, or no members). */
  @Column('text', { nullable: true })
  ownerSteamId: string | null;

  /** The owner's 32-bit account id, whether or not the service tracks that account. */
  @Column('integer', { nullable: true })
  ownerAccountId: number | null;

  /** When the service first saw the group (stands in for the founding date, which is on the HTML page only). */
  @Column('timestamptz', { default: () => 'now()' })
  firstSeenAt: Date;

  /** When the group was last read from the platform (rows exist only for groups read at least once). */
  @Column('timestamptz', { default: () => 'now()' })
  refreshedAt: Date;
}
