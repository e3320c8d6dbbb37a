import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An app the pricing job walks: every app with known trading cards gets a row (see PricingCycle.enrol), and each
 * cycle prices the ones checked longest ago, through `ix_app_pricing_checked_at`.
 */
@Entity('app_pricing')
@Index('ix_app_pricing_checked_at', ['checkedAt', 'appId'])
export class AppPricingEntity {
  @PrimaryColumn('integer')
  appId: number;

  /** When the job last read the app's prices (the Unix epoch until its first time). */
  @Column('timestamptz')
  checkedAt: Date;
}
