import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A site-wide broadcast (maintenance window, announcement), managed by operators through the CLI. */
@Entity('maintenance_events')
export class MaintenanceEventEntity {
  @PrimaryColumn('text')
  uid: string;

  @Column('text')
  title: string;

  /** Markdown. */
  @Column('text')
  message: string;

  @Column('boolean', { default: true })
  enabled: boolean;

  /** Covered path prefixes; `*` is the whole site. */
  @Column('jsonb', { default: () => `'["*"]'` })
  paths: string[];

  @Column('timestamptz', { nullable: true })
  startsAt: Date | null;

  @Column('timestamptz', { nullable: true })
  endsAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  @Column('integer', { nullable: true })
  createdBy: number | null;
}
