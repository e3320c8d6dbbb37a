import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A normal trading card (item class) of an app seen in tracked inventories, with how many inventories hold it;
 * an app's `cardCount` is the number of its classes with owners. Kept in step by the update writer (see
 * AppCardClasses); classes nobody holds any more keep their row with `owners = 0`.
 */
@Entity('app_card_classes')
export class AppCardClassEntity {
  @PrimaryColumn('integer')
  appId: number;

  @PrimaryColumn('text')
  classId: string;

  @Column('integer', { default: 0 })
  owners: number;
}
