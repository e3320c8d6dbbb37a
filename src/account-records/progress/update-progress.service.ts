import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { REDIS, redisKey } from '../../common/redis/redis.module';
import { ReplayLog } from '../../common/replay/replay-log';
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

/**
 * An account's replay log (`account.subscribe`): exists only while a stream of the account is open and for this
 * long after the last one closed (the window in which a client can resume), and keeps this many events (an
 * update run is about 20: statuses and steps). See docs/architecture.md for the cost at 1M accounts.
 */
export const ACCOUNT_REPLAY_TTL_SECONDS = 300;
export const ACCOUNT_REPLAY_MAXLEN = 64;

/**
 * Stores the snapshot and, when the account's replay log exists, appends `account-updated` (when the run or its
 * status differs from the snapshot stored before: decided here, atomically, so every stream and every replay
 * agrees on it) and `account-update-progress`; then publishes the fact. KEYS: progress, log. ARGV: snapshot,
 * ttl, "runId|status", account-updated data, progress data, channel, message, maxlen.
 */
const PUBLISH_PROGRESS = `
local previous = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
if redis.call('EXISTS', KEYS[2]) == 1 then
  local changed = true
  if previous then
    local ok, state = pcall(function()
      local old = cjson.decode(previous)
      return tostring(old.runId) .. '|' .. tostring(old.status)
    end)
    if ok and state == ARGV[3] then changed = false end
  end
  if changed then redis.call('XADD', KEYS[2], 'MAXLEN', '=', ARGV[8], '*', 'e', 'account-updated', 'd', ARGV[4]) end
  redis.call('XADD', KEYS[2], 'MAXLEN', '=', ARGV[8], '*', 'e', 'account-update-progress', 'd', ARGV[5])
end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1`;

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

  /** The Redis key of the account's replay log: it exists while someone follows the account (accountLog). */
  accountLogKey(accountId: number): string {
    return redisKey(this.config, 'replay', 'account', accountId);
  }

  /** The replay log of `account.subscribe` for one account (see ACCOUNT_REPLAY_TTL_SECONDS). */
  accountLog(accountId: number): ReplayLog {
    return new ReplayLog(this.redis, this.accountLogKey(accountId), {
      maxLen: ACCOUNT_REPLAY_MAXLEN,
      exact: true,
      ttlSeconds: ACCOUNT_REPLAY_TTL_SECONDS,
    });
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
    const { accountId, status } = snapshot;
    await this.redis.eval(
      PUBLISH_PROGRESS,
      2,
      redisKey(this.config, 'progress', accountId),
      this.accountLog(accountId).key,
      JSON.stringify(snapshot),
      PROGRESS_TTL_SECONDS,
      `${snapshot.runId}|${status}`,
      JSON.stringify({ accountId, status }),
      JSON.stringify({ progress: snapshot }),
      this.channel,
      JSON.stringify({ type: 'progress', accountId, status, progress: snapshot }),
      ACCOUNT_REPLAY_MAXLEN,
    );
  }

  async read(accountId: number): Promise<ProgressSnapshot | null> {
    const raw = await this.redis.get(redisKey(this.config, 'progress', accountId));
    return raw ? (JSON.parse(raw) as ProgressSnapshot) : null;
  }
}
