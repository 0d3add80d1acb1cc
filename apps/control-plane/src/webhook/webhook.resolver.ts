import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from './models/webhook.inputs';
import {
  WebhookEndpoint,
  WebhookEndpointSecretPayload,
  WebhookQueue,
  WebhookReplayPayload,
} from './models/webhook.model';
import { DEFAULT_ROTATION_GRACE_SECONDS, WebhookService } from './webhook.service';

@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  constructor(private readonly webhooks: WebhookService) {}

  @Query(() => [WebhookEndpoint], {
    description: "A tenant's webhook endpoints by name: for its members and operators.",
  })
  webhookEndpoints(
    @CurrentUser() user: AuthUser,
    @Args('tenantId', { type: () => ID }) tenantId: string,
  ): Promise<WebhookEndpoint[]> {
    return this.webhooks.list(user, tenantId);
  }

  @Query(() => WebhookEndpoint, {
    description: 'One webhook endpoint; NOT_FOUND unless the caller may read it.',
  })
  webhookEndpoint(
    @CurrentUser() user: AuthUser,
    @Args('id', { type: () => ID }) id: string,
  ): Promise<WebhookEndpoint> {
    return this.webhooks.get(user, id);
  }

  @ResolveField(() => WebhookQueue, {
    description: 'Its queue now: depth, in flight, counts, oldest waiting age, latest attempts.',
  })
  queue(@Parent() endpoint: WebhookEndpoint): Promise<WebhookQueue> {
    return this.webhooks.queue(endpoint);
  }

  @Mutation(() => WebhookEndpointSecretPayload, {
    description:
      'Creates a webhook endpoint (tenant admins of the tenant, operators); its signing secret is in this answer only. The URL must resolve to public addresses.',
  })
  createWebhookEndpoint(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointSecretPayload> {
    return this.webhooks.create(user, actor, input);
  }

  @Mutation(() => WebhookEndpoint, {
    description: "Changes an endpoint's settings; its secret and queued events stay.",
  })
  updateWebhookEndpoint(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpoint> {
    return this.webhooks.update(user, actor, input);
  }

  @Mutation(() => ID, {
    description:
      'Deletes an endpoint with its delivery records; events still queued are dropped. Answers its id.',
  })
  deleteWebhookEndpoint(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
  ): Promise<string> {
    return this.webhooks.delete(user, actor, id);
  }

  @Mutation(() => WebhookEndpointSecretPayload, {
    description:
      'Gives the endpoint a new signing secret, in this answer only. The previous one signs too (a second `v1=` entry in Sluice-Signature) for `keepPreviousSeconds` (default one day, at most 7; 0: not at all, for a leaked secret).',
  })
  rotateWebhookEndpointSecret(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
    @Args('keepPreviousSeconds', {
      type: () => Int,
      nullable: true,
      defaultValue: DEFAULT_ROTATION_GRACE_SECONDS,
    })
    keepPreviousSeconds: number | null,
  ): Promise<WebhookEndpointSecretPayload> {
    return this.webhooks.rotate(user, actor, id, keepPreviousSeconds);
  }

  @Mutation(() => WebhookReplayPayload, {
    description:
      'Sends one dead letter back to the queue with its event id, for a new run of attempts.',
  })
  replayWebhookDeadLetter(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('endpointId', { type: () => ID }) endpointId: string,
    @Args('eventId', { type: () => ID }) eventId: string,
  ): Promise<WebhookReplayPayload> {
    return this.webhooks.replay(user, actor, endpointId, { eventIds: [eventId] });
  }

  @Mutation(() => WebhookReplayPayload, {
    description:
      "Sends the endpoint's dead letters back to the queue (at most 1000 a call, oldest first; `remaining` says how many are left); they go out at the endpoint's rate.",
  })
  replayWebhookDeadLetters(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('endpointId', { type: () => ID }) endpointId: string,
    @Args('since', {
      type: () => Date,
      nullable: true,
      description: 'Only the dead letters that died at or after this time.',
    })
    since?: Date | null,
  ): Promise<WebhookReplayPayload> {
    return this.webhooks.replay(user, actor, endpointId, { since: since ?? undefined });
  }
}
