import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

export type AlertRefusal = 'queue_full' | 'conflict';
export type AlertDrop = 'invalid' | 'no_endpoint';

/** What the threshold-alert consumer did, on the app's /metrics (per process). */
@Injectable()
export class AlertMetrics {
  private readonly received: Counter;
  private readonly admitted: Counter;
  private readonly refused: Counter<'reason'>;
  private readonly dropped: Counter<'reason'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.received = new Counter({
      name: 'sluice_alerts_received_total',
      help: 'Threshold alerts read from the alert stream (a redelivered one counts again)',
      registers,
    });
    this.admitted = new Counter({
      name: 'sluice_alert_events_admitted_total',
      help: "sluice.quota.threshold events admitted to an endpoint's queue (replays of an earlier admission not counted)",
      registers,
    });
    this.refused = new Counter({
      name: 'sluice_alert_events_refused_total',
      help: 'sluice.quota.threshold events an endpoint did not take: its queue was full (queue_full), or its idempotency key held another event (conflict)',
      labelNames: ['reason'],
      registers,
    });
    this.dropped = new Counter({
      name: 'sluice_alerts_dropped_total',
      help: 'Alerts acknowledged without an event: not an alert (invalid), or no enabled endpoint by then (no_endpoint)',
      labelNames: ['reason'],
      registers,
    });
  }

  alertReceived(): void {
    this.received.inc();
  }

  eventAdmitted(): void {
    this.admitted.inc();
  }

  eventRefused(reason: AlertRefusal): void {
    this.refused.inc({ reason });
  }

  alertDropped(reason: AlertDrop): void {
    this.dropped.inc({ reason });
  }
}
