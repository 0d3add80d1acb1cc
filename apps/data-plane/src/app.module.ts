import { type DynamicModule, Module } from '@nestjs/common';
import {
  HealthModule,
  LoggingModule,
  MetricsModule,
  RedisModule,
  RedisReadinessCheck,
} from '@sluice/nest-kit';
import { ENV, type Env } from './env';
import { serviceInfo } from './service-info';

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
      ],
      providers: [{ provide: ENV, useValue: env }],
      exports: [ENV],
    };
  }
}
