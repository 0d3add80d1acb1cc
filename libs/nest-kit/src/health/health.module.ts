import { type DynamicModule, Module } from '@nestjs/common';
import {
  HEALTH_MODULE_OPTIONS,
  type HealthModuleOptions,
  READINESS_CHECKS,
} from './health.options';
import { LivenessController } from './liveness.controller';
import type { ReadinessCheck } from './readiness-check';
import { ReadinessController } from './readiness.controller';

/** GET /healthz, and GET /readyz when there is something to be ready for. */
@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions): DynamicModule {
    const readiness = options.readiness ?? [];
    return {
      module: HealthModule,
      controllers:
        readiness.length > 0 ? [LivenessController, ReadinessController] : [LivenessController],
      providers: [
        { provide: HEALTH_MODULE_OPTIONS, useValue: options },
        {
          provide: READINESS_CHECKS,
          inject: [...readiness],
          useFactory: (...checks: ReadinessCheck[]) => checks,
        },
      ],
    };
  }
}
