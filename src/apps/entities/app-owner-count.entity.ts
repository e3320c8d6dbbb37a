import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many tracked libraries hold an app (`app.listOwners`' `trackedOwners`), so no request counts the owners.
 * Kept in step by the update writer (see AppOwnerCounts); an app nobody owns any more keeps its row with 0.
 */
@Entity('app_owner_counts')
export class AppOwnerCountEntity {
  @PrimaryColumn('integer')
  appId: number;

  @Column('integer', { default: 0 })
  owners: number;
}
