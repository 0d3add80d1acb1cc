import { Module } from '@nestjs/common';
import { DataPlaneMetrics } from './data-plane.metrics';

/** The data plane's own metrics on nest-kit's registry (served by its GET /metrics). */
@Module({
  providers: [DataPlaneMetrics],
  exports: [DataPlaneMetrics],
})
export class DataPlaneMetricsModule {}
