import { type DynamicModule, Module } from '@nestjs/common';
import { HealthModule, LoggingModule } from '@sluice/nest-kit';
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
        HealthModule.forRoot(serviceInfo),
      ],
      providers: [{ provide: ENV, useValue: env }],
      exports: [ENV],
    };
  }
}
