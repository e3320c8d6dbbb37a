import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { commandClientOptions, redisAddress, watchRedis } from './redis-connection';

/** Injection token of the shared ioredis client (commands only; subscribers open their own connection). */
export const REDIS = Symbol('REDIS');

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status !== 'end') await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      // Connected before anything uses it (commands fail fast without an offline queue, see commandClientOptions).
      useFactory: async (config: AppConfig) => {
        const client = watchRedis(new Redis(commandClientOptions(config.redisUrl)), 'commands', redisAddress(config.redisUrl));
        try {
          await client.connect();
        } catch (error) {
          client.disconnect();
          throw error;
        }
        return client;
      },
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}

/** Key of the service in the shared Redis: `<prefix>:<parts…>`. */
export function redisKey(config: Pick<AppConfig, 'redisPrefix'>, ...parts: (string | number)[]): string {
  return [config.redisPrefix, ...parts].join(':');
}
