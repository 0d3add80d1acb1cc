import { Global, Module } from '@nestjs/common';
import { DecisionEngine } from '@sluice/engine';
import { DataPlaneMetricsModule } from '../metrics/metrics.module';
import { Decisions } from './decisions.service';
import { EngineService } from './engine.service';
import { HeartbeatService } from './heartbeat.service';

/**
 * The decision engine (and, through `EngineService`, its usage recorder and Redis connections)
 * for every HTTP module. Global: the check, authorize and limits modules all decide with it.
 */
@Global()
@Module({
  imports: [DataPlaneMetricsModule],
  providers: [
    EngineService,
    {
      provide: DecisionEngine,
      inject: [EngineService],
      useFactory: (s: EngineService) => s.engine,
    },
    Decisions,
    HeartbeatService,
  ],
  exports: [DecisionEngine, Decisions],
})
export class EngineModule {}
