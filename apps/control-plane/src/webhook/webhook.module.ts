import { Module } from '@nestjs/common';
import { PolicyEvents } from './policy-events.service';
import { WebhookQueueService } from './webhook-queue.service';
import { WebhookResolver } from './webhook.resolver';
import { WebhookService } from './webhook.service';

/**
 * Webhook endpoints over GraphQL: CRUD, secret rotation, dead-letter replay, queue view; and
 * the `sluice.policy.published` events of each new version.
 */
@Module({ providers: [WebhookQueueService, WebhookService, WebhookResolver, PolicyEvents] })
export class WebhookModule {}
