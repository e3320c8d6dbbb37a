import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How many of an app's normal card classes have owners (`app_card_classes` rows with `owners > 0`): a badge's
 * `cardCount`, read by a key look-up per badge instead of counting the app's classes per badge row. Kept in step
 * with `app_card_classes` by the same statement of the update writer (see AppCardClasses).
 */
@Entity('app_card_counts')
export class AppCardCountEntity {
  @PrimaryColumn('integer')
  appId: number;

  @Column('integer', { default: 0 })
  classes: number;
}
