import { DynamicModule, Global, Module } from '@nestjs/common';
import { MetricsPublisher } from './metrics-publisher';
import { ProcessRole, ServiceMetrics } from './service-metrics';

/** This process's metrics and their copy in Redis (see ServiceMetrics); global, so any area may record. */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(role: ProcessRole): DynamicModule {
    return {
      module: MetricsModule,
      providers: [{ provide: ServiceMetrics, useValue: new ServiceMetrics(role) }, MetricsPublisher],
      exports: [ServiceMetrics, MetricsPublisher],
    };
  }
}
