import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { redisConnectionOptions } from '../redis/redis-connection';

/** BullMQ on the shared Redis, under the service's key prefix. Queues are registered by the areas that own them. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: { ...redisConnectionOptions(config.redisUrl), maxRetriesPerRequest: null },
        prefix: `${config.redisPrefix}:bull`,
      }),
    }),
  ],
  exports: [BullModule],
})
export class QueueModule {}
