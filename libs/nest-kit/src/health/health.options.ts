import type { Type } from '@nestjs/common';
import type { ServiceInfo } from '../service-info';
import type { ReadinessCheck } from './readiness-check';

export interface HealthModuleOptions extends ServiceInfo {
  /**
   * What /readyz checks, as providers visible to the health module (e.g. `RedisReadinessCheck`
   * from the global `RedisModule`). Without any, the app serves no /readyz.
   */
  readonly readiness?: readonly Type<ReadinessCheck>[];
}

export const HEALTH_MODULE_OPTIONS = Symbol('HEALTH_MODULE_OPTIONS');
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
