import { Column, Entity, PrimaryColumn } from 'typeorm';

export const ANALYTICS_OUTCOMES = [
  'VALID',
  'RATE_LIMITED',
  'INVALID',
  'EXPIRED',
  'DISABLED',
  'INSUFFICIENT_PERMISSIONS',
  'FORBIDDEN',
  'USAGE_EXCEEDED',
] as const;
export type AnalyticsOutcome = (typeof ANALYTICS_OUTCOMES)[number];

/** Requests made with one API key in one clock hour, by outcome: the source of developer-app analytics. */
@Entity('api_key_usage')
export class ApiKeyUsageEntity {
  @PrimaryColumn('text')
  keyId: string;

  @PrimaryColumn('timestamptz')
  hour: Date;

  @PrimaryColumn('text')
  outcome: AnalyticsOutcome;

  @Column('integer', { default: 0 })
  count: number;
}
