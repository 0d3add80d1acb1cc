import { type DynamicModule, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { MetricsController } from './metrics.controller';

/**
 * GET /metrics with Node's default metrics. Global, so any module can inject the `Registry` and
 * register its own metrics on it (`registers: [registry]`).
 */
@Module({})
export class MetricsModule {
  static forRoot(): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        {
          // One registry per app, not prom-client's global one, so several apps can share a process.
          provide: Registry,
          useFactory: () => {
            const registry = new Registry();
            collectDefaultMetrics({ register: registry });
            return registry;
          },
        },
      ],
      exports: [Registry],
    };
  }
}
