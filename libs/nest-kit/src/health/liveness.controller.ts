import { Controller, Get, Inject } from '@nestjs/common';
import { probeRoutes } from '../probe-routes';
import type { ServiceInfo } from '../service-info';
import { HEALTH_MODULE_OPTIONS, type HealthModuleOptions } from './health.options';

export interface Liveness extends ServiceInfo {
  readonly status: 'ok';
}

@Controller()
export class LivenessController {
  private readonly liveness: Liveness;

  constructor(@Inject(HEALTH_MODULE_OPTIONS) { service, version }: HealthModuleOptions) {
    this.liveness = { status: 'ok', service, version };
  }

  /** Liveness only: answers while the process serves HTTP, whatever its dependencies do. */
  @Get(probeRoutes.liveness)
  live(): Liveness {
    return this.liveness;
  }
}
