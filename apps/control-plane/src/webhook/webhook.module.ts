import { Module } from '@nestjs/common';
import { WebhookQueueService } from './webhook-queue.service';
import { WebhookResolver } from './webhook.resolver';
import { WebhookService } from './webhook.service';

/** Webhook endpoints over GraphQL: CRUD, secret rotation, dead-letter replay, queue view. */
@Module({ providers: [WebhookQueueService, WebhookService, WebhookResolver] })
export class WebhookModule {}
