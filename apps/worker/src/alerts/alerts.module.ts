import { Module } from '@nestjs/common';
import { AlertConsumer } from './alert-consumer.service';
import { AlertMetrics } from './alert.metrics';

/** Threshold alerts from the data planes → `sluice.quota.threshold` webhook events. */
@Module({ providers: [AlertMetrics, AlertConsumer] })
export class AlertsModule {}
