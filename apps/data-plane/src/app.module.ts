import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import {
  HealthModule,
  LoggingModule,
  MetricsModule,
  RedisModule,
  RedisReadinessCheck,
} from '@sluice/nest-kit';
import { AuthorizeModule } from './authorize/authorize.module';
import { CheckModule } from './check/check.module';
import { EngineModule } from './engine/engine.module';
import { ENV, type Env } from './env';
import { ApiModule } from './http/api.module';
import { ProblemFilter } from './http/problem.filter';
import { LimitsModule } from './limits/limits.module';
import { OpenApiModule } from './openapi/openapi.module';
import { ReservationsModule } from './reservations/reservations.module';
import { serviceInfo } from './service-info';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        // request logs cover the Nest routes; the API instance's /v1/ routes are counted in
        // metrics and the decision log instead (and their Authorization header stays out of logs)
        LoggingModule.forRoot({ service: serviceInfo.service, level: env.LOG_LEVEL }),
        RedisModule.forRoot({ url: env.REDIS_URL }),
        HealthModule.forRoot({ ...serviceInfo, readiness: [RedisReadinessCheck] }),
        MetricsModule.forRoot(),
        EngineModule,
        ApiModule,
        CheckModule,
        AuthorizeModule,
        LimitsModule,
        ReservationsModule,
        WebhooksModule,
        OpenApiModule,
      ],
      providers: [
        { provide: ENV, useValue: env },
        { provide: APP_FILTER, useClass: ProblemFilter },
      ],
      exports: [ENV],
    };
  }
}
