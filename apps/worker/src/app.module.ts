import { type DynamicModule, Module } from '@nestjs/common';
import {
  HealthModule,
  LoggingModule,
  MetricsModule,
  RedisModule,
  RedisReadinessCheck,
} from '@sluice/nest-kit';
import { AlertsModule } from './alerts/alerts.module';
import { DatabaseModule } from './database/database.module';
import { ENV, type Env } from './env';
import { JobsModule } from './jobs/jobs.module';
import { RollupModule } from './rollup/rollup.module';
import { serviceInfo } from './service-info';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ service: serviceInfo.service, level: env.LOG_LEVEL }),
        RedisModule.forRoot({ url: env.REDIS_URL }),
        HealthModule.forRoot({ ...serviceInfo, readiness: [RedisReadinessCheck] }),
        MetricsModule.forRoot(),
        DatabaseModule,
        JobsModule,
        RollupModule,
        WebhooksModule,
        AlertsModule,
      ],
      providers: [{ provide: ENV, useValue: env }],
      exports: [ENV],
    };
  }
}
