import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import type { RollupRun } from './rollup.service';

/** What the usage roll-up did, on the app's /metrics. */
@Injectable()
export class RollupMetrics {
  private readonly folded: Counter;
  private readonly written: Counter;
  private readonly lastRun: Gauge;
  private readonly deletedRows: Counter;

  constructor(registry: Registry) {
    this.folded = new Counter({
      name: 'sluice_usage_rollup_minutes_folded_total',
      help: '(tenant, policy, minute) totals computed from per-second counters',
      registers: [registry],
    });
    this.written = new Counter({
      name: 'sluice_usage_rollup_rows_written_total',
      help: 'UsageMinute rows inserted or changed by roll-ups',
      registers: [registry],
    });
    this.lastRun = new Gauge({
      name: 'sluice_usage_rollup_last_success_seconds',
      help: 'Unix time of the last roll-up that completed (alert when it falls behind)',
      registers: [registry],
    });
    this.deletedRows = new Counter({
      name: 'sluice_usage_minutes_deleted_total',
      help: 'UsageMinute rows deleted past WORKER_USAGE_RETENTION_DAYS',
      registers: [registry],
    });
  }

  rolledUp(run: RollupRun): void {
    this.folded.inc(run.folded);
    this.written.inc(run.written);
    this.lastRun.setToCurrentTime();
  }

  deleted(rows: number): void {
    this.deletedRows.inc(rows);
  }
}
