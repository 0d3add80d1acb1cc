import { Module } from '@nestjs/common';
import { RollupMetrics } from './rollup.metrics';
import { RollupService } from './rollup.service';
import { RollupWorker } from './rollup.worker';

/** Usage roll-ups: per-second counters in Redis → `UsageMinute` rows, and their retention. */
@Module({ providers: [RollupMetrics, RollupService, RollupWorker], exports: [RollupService] })
export class RollupModule {}
