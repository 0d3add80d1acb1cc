import { Module } from '@nestjs/common';
import { WebhookDeliveryRecorder } from './webhook-delivery.recorder';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookMetrics } from './webhook.metrics';
import { WebhookSender } from './webhook-sender';
import { WebhookWorker } from './webhook.worker';

/** The webhook dispatcher: deliveries at each endpoint's constant rate, retries, dead letters. */
@Module({
  providers: [
    WebhookSender,
    WebhookDeliveryRecorder,
    WebhookMetrics,
    WebhookDispatcher,
    WebhookWorker,
  ],
  exports: [WebhookWorker],
})
export class WebhooksModule {}
