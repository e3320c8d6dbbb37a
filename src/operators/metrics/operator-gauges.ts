import { Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { CallBudget } from '../../platform/client/call-budget';
import { OperatorQueues } from '../operator-queues';

/** Job states counted per queue (BullMQ's getJobCounts names). */
const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed', 'paused'] as const;

/**
 * The service-wide figures, read from Redis when /metrics is scraped (not per process: they would be summed once
 * per process): jobs per queue and state, and the platform's daily call budget left.
 */
@Injectable()
export class OperatorGauges {
  readonly registry = new Registry();

  constructor(queues: OperatorQueues, budget: CallBudget) {
    new Gauge({
      name: 'bullmq_queue_jobs',
      help: 'Jobs in each BullMQ queue, by state.',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        const counts = await Promise.all(queues.all.map((queue) => queue.getJobCounts(...STATES)));
        queues.all.forEach((queue, i) => {
          for (const state of STATES) this.set({ queue: queue.name, state }, counts[i][state] ?? 0);
        });
      },
    });
    new Gauge({
      name: 'platform_call_budget_remaining',
      help: "Web API calls left in the platform's daily budget (UTC day), shared by every process.",
      registers: [this.registry],
      async collect() {
        this.set(await budget.remaining());
      },
    });
    new Gauge({
      name: 'platform_call_budget_limit',
      help: "The platform's daily Web API budget (PLATFORM_DAILY_CALL_BUDGET).",
      registers: [this.registry],
    }).set(budget.dailyLimit);
  }
}
