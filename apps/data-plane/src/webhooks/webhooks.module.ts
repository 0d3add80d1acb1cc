import { Module } from '@nestjs/common';
import { WebhookIntake } from './webhook-intake.service';
import { WebhooksController } from './webhooks.controller';

/** POST /v1/webhooks: events in, shaped by each endpoint's leaky bucket, out by the worker. */
@Module({ providers: [WebhookIntake, WebhooksController] })
export class WebhooksModule {}
