import { Module } from '@nestjs/common';
import { ValueLeaders } from './value-leaders.service';

/** The per-value leaders of the bucketed boards: written by the update worker, read by getBucketLeaders. */
@Module({ providers: [ValueLeaders], exports: [ValueLeaders] })
export class ValueLeadersModule {}
