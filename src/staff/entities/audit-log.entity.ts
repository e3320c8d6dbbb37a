import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One staff change (src/staff/audit-log.ts): who made it (`actorAccountId`, null for the operator's CLI, `via`),
 * what (`action`, the account or object it changed), when, and the state before and after. Appended in the
 * change's own transaction; never updated.
 */
@Entity('audit_log')
@Index('ix_audit_log_target', ['targetAccountId', 'id'])
export class AuditLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column('integer', { nullable: true })
  actorAccountId: number | null;

  /** `api` (a staff session) or `cli` (the operator's command line). */
  @Column('text')
  via: string;

  /** The operation or command, e.g. `admin.updateRoles`. */
  @Column('text')
  action: string;

  @Column('integer', { nullable: true })
  targetAccountId: number | null;

  /** The changed object when it is not an account (a maintenance event's uid). */
  @Column('text', { nullable: true })
  targetId: string | null;

  @Column('jsonb', { nullable: true })
  before: unknown;

  @Column('jsonb', { nullable: true })
  after: unknown;

  @Column('timestamptz', { default: () => 'now()' })
  createdAt: Date;
}
