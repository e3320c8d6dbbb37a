import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { JsonLogger } from '../common/logging/json-logger';
import { PlatformSimulator } from './simulator';

/**
 * With no platform key and no explicit PLATFORM_API_URL, the API process hosts the platform simulator so one
 * command gives a working service. The platform client still reaches it over HTTP, like the real platform.
 */
@Injectable()
export class SimulatorHostService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new JsonLogger('SimulatorHost');
  private simulator: PlatformSimulator | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.simulator.embedded) return;
    const { seed, accounts, latencyMs, tickMs, host, port } = this.config.simulator;
    this.simulator = new PlatformSimulator({ seed, accounts, latencyMs, tickMs, apiKey: null });
    const listening = await this.simulator.listen(port, host);
    this.logger.log({
      msg: 'no PLATFORM_API_KEY set: serving the platform simulator in-process',
      url: `http://${host}:${listening}`,
      accounts,
      seed,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.simulator?.close();
    this.simulator = null;
  }
}
