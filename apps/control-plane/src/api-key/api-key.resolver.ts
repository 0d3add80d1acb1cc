import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { AuditActor } from '../audit/audit.service';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, RequestActor } from '../auth/decorators';
import { type Connection, PageArgs } from '../graphql/pagination';
import { connectionComplexity } from '../graphql/query-limits';
import { ApiKeyService } from './api-key.service';
import { ApiKeyFilter, CreateApiKeyInput, UpdateApiKeyInput } from './models/api-key.inputs';
import { ApiKey, ApiKeyConnection, ApiKeySecretPayload } from './models/api-key.model';

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  constructor(private readonly keys: ApiKeyService) {}

  @Query(() => ApiKeyConnection, {
    complexity: connectionComplexity,
    description:
      "A tenant's API keys, newest first: for its members and operators (FORBIDDEN for anyone else).",
  })
  apiKeys(
    @CurrentUser() user: AuthUser,
    @Args('tenantId', { type: () => ID }) tenantId: string,
    @Args('filter', { type: () => ApiKeyFilter, nullable: true }) filter: ApiKeyFilter | null,
    @Args() page: PageArgs,
  ): Promise<Connection<ApiKey>> {
    return this.keys.list(user, tenantId, filter, page);
  }

  @Query(() => ApiKey, { description: 'One API key; NOT_FOUND unless the caller may read it.' })
  apiKey(
    @CurrentUser() user: AuthUser,
    @Args('id', { type: () => ID }) id: string,
  ): Promise<ApiKey> {
    return this.keys.get(user, id);
  }

  @Mutation(() => ApiKeySecretPayload, {
    description:
      'Creates an API key (tenant admins of the tenant, operators); its secret is in this answer only.',
  })
  createApiKey(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: CreateApiKeyInput,
  ): Promise<ApiKeySecretPayload> {
    return this.keys.create(user, actor, input);
  }

  @Mutation(() => ApiKey, {
    description:
      "Changes a key's name, policies, scopes or expiry; its secret stays. A revoked key cannot change (CONFLICT).",
  })
  updateApiKey(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('input') input: UpdateApiKeyInput,
  ): Promise<ApiKey> {
    return this.keys.update(user, actor, input);
  }

  @Mutation(() => ApiKey, {
    description:
      'Revokes a key: the data plane refuses it within seconds. Revoking a revoked key changes nothing.',
  })
  revokeApiKey(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
  ): Promise<ApiKey> {
    return this.keys.revoke(user, actor, id);
  }

  @Mutation(() => ApiKeySecretPayload, {
    description:
      'Replaces a key by a new one with the same name, policies, scopes and expiry, whose secret is in this answer only. The old key is revoked at once: it stops working as soon as the data plane sees the change (within seconds), with no overlap: callers still using it are refused until they switch to the new secret. For a handover without refusals, create a second key, switch, then revoke the first. A revoked or expired key cannot be rotated (CONFLICT).',
  })
  rotateApiKey(
    @CurrentUser() user: AuthUser,
    @RequestActor() actor: AuditActor,
    @Args('id', { type: () => ID }) id: string,
  ): Promise<ApiKeySecretPayload> {
    return this.keys.rotate(user, actor, id);
  }
}
