import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { PRICING_QUEUE } from '../pricing/pricing.constants';
import { GROUP_REFRESH_QUEUE } from '../refresh/group-refresh.constants';
import { ACCOUNT_UPDATE_QUEUE } from '../refresh/update-queue.constants';
import { WEBHOOK_DELIVERY_QUEUE } from '../webhooks/webhook-queue.constants';

/** Every BullMQ queue of the service: the operators' views (metrics, dashboard) show them all. */
export const OPERATED_QUEUES = [ACCOUNT_UPDATE_QUEUE, GROUP_REFRESH_QUEUE, PRICING_QUEUE, WEBHOOK_DELIVERY_QUEUE] as const;

/** The service's queues as producer-side handles (no worker): counted for /metrics and shown on the dashboard. */
@Injectable()
export class OperatorQueues {
  readonly all: Queue[];

  constructor(
    @InjectQueue(ACCOUNT_UPDATE_QUEUE) accountUpdates: Queue,
    @InjectQueue(GROUP_REFRESH_QUEUE) groupRefreshes: Queue,
    @InjectQueue(PRICING_QUEUE) pricing: Queue,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) webhooks: Queue,
  ) {
    this.all = [accountUpdates, groupRefreshes, pricing, webhooks];
  }
}
