import { Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

let cached: AppConfig | undefined;

/** The process's configuration: validated on first use, then shared. Tests may pass their own. */
export function processConfig(): AppConfig {
  cached ??= loadConfig(process.env);
  return cached;
}

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig = processConfig()) {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
