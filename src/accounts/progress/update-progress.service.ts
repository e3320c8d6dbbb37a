import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { UpdateStepRecord, UpdateStatus } from '../entities/account-update.entity';
import { UPDATE_STEPS, UpdateStepName } from './update-steps';

/** The live state of an account's latest update run, as `account.updateProgress` and the stream publish it. */
export interface ProgressSnapshot {
  accountId: number;
  runId: string;
  status: UpdateStatus;
  currentStep: string;
  percent: number;
  steps: UpdateStepRecord[];
  updatedAt: string;
  queuedAt?: string;
  startedAt?: string;
  finishedAt?: string;
  error?: { category: string; retryable: boolean };
}

/** How long a finished run stays readable from Redis; afterwards it is read from account_updates. */
const PROGRESS_TTL_SECONDS = 86_400;

/** Writes progress snapshots to Redis (fast, shared by API and worker) and announces each one on a channel. */
@Injectable()
export class UpdateProgressService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Channel carrying every account's progress and queue-status changes, for `account.subscribe`. */
  get channel(): string {
    return redisKey(this.config, 'events', 'account');
  }

  static initial(accountId: number, runId: string, queuedAt: Date): ProgressSnapshot {
    return {
      accountId,
      runId,
      status: 'pending',
      currentStep: UPDATE_STEPS[0],
      percent: 0,
      steps: UPDATE_STEPS.map((name) => ({ name, status: 'pending' })),
      updatedAt: queuedAt.toISOString(),
      queuedAt: queuedAt.toISOString(),
    };
  }

  /** Marks `step` running, the steps before it done, and derives the percentage. */
  static atStep(snapshot: ProgressSnapshot, step: UpdateStepName, now = new Date()): ProgressSnapshot {
    const index = UPDATE_STEPS.indexOf(step);
    const at = now.toISOString();
    return {
      ...snapshot,
      status: 'in_progress',
      currentStep: step,
      percent: Math.floor((index / UPDATE_STEPS.length) * 100),
      startedAt: snapshot.startedAt ?? at,
      updatedAt: at,
      steps: snapshot.steps.map((record, i) => {
        if (i < index && record.status === 'running') return { ...record, status: 'done', finishedAt: at };
        if (i === index) return { ...record, status: 'running', startedAt: at };
        return record;
      }),
    };
  }

  static finished(
    snapshot: ProgressSnapshot,
    outcome: 'completed' | 'failed',
    error?: ProgressSnapshot['error'],
    now = new Date(),
  ): ProgressSnapshot {
    const at = now.toISOString();
    return {
      ...snapshot,
      status: outcome,
      percent: outcome === 'completed' ? 100 : snapshot.percent,
      updatedAt: at,
      finishedAt: at,
      ...(error ? { error } : {}),
      steps: snapshot.steps.map((record) => {
        if (record.status === 'running') return { ...record, status: outcome === 'completed' ? 'done' : 'failed', finishedAt: at };
        if (record.status === 'pending' && outcome === 'completed') return { ...record, status: 'skipped' };
        return record;
      }),
    };
  }

  async publish(snapshot: ProgressSnapshot): Promise<void> {
    const key = redisKey(this.config, 'progress', snapshot.accountId);
    await this.redis
      .multi()
      .set(key, JSON.stringify(snapshot), 'EX', PROGRESS_TTL_SECONDS)
      .publish(
        this.channel,
        JSON.stringify({ type: 'progress', accountId: snapshot.accountId, status: snapshot.status, progress: snapshot }),
      )
      .exec();
  }

  async read(accountId: number): Promise<ProgressSnapshot | null> {
    const raw = await this.redis.get(redisKey(this.config, 'progress', accountId));
    return raw ? (JSON.parse(raw) as ProgressSnapshot) : null;
  }
}
