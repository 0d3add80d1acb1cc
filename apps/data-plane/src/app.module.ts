import { type DynamicModule, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { ENV, type Env } from './env';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { serviceInfo } from './service-info';

// Orchestrators and Prometheus poll these every few seconds; logging each would bury real traffic.
const probeRoutes = ['healthz', 'readyz', 'metrics'];

@Module({})
export class AppModule implements OnApplicationShutdown {
  private readonly logger = new Logger(AppModule.name);

  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: { name: serviceInfo.service, level: env.LOG_LEVEL },
          exclude: probeRoutes,
        }),
        HealthModule,
        MetricsModule,
      ],
      providers: [{ provide: ENV, useValue: env }],
      exports: [ENV],
    };
  }

  /** A global module's shutdown hook runs last: this line marks a completed graceful stop. */
  onApplicationShutdown(signal?: string): void {
    this.logger.log(signal ? `shut down on ${signal}` : 'shut down');
  }
}
