import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { ApiKeyScope } from '@sluice/policy';
import { ConnectionType } from '../../graphql/pagination';

/** GraphQL names of the scopes (values are the stored ones, as the data plane reads them). */
export const ApiKeyScopeEnum = {
  CHECK: 'check',
  ADMIN: 'admin',
} as const satisfies Record<string, ApiKeyScope>;

registerEnumType(ApiKeyScopeEnum, {
  name: 'ApiKeyScope',
  description:
    "CHECK: check, settle, release and inspect limits. ADMIN: all that, and resetting an identifier's state.",
});

/** A key's state, for filtering a list (values are the service's own). */
export const ApiKeyStatusEnum = {
  ACTIVE: 'active',
  EXPIRED: 'expired',
  REVOKED: 'revoked',
} as const;
export type ApiKeyStatus = (typeof ApiKeyStatusEnum)[keyof typeof ApiKeyStatusEnum];

registerEnumType(ApiKeyStatusEnum, {
  name: 'ApiKeyStatus',
  description:
    'ACTIVE: accepted by the data plane (not revoked, not past its expiry). EXPIRED: past its expiry, not revoked. REVOKED: revoked (expired or not).',
});

@ObjectType({
  description:
    'A service key of a tenant for the data plane. Only its SHA-256 is stored: the secret is shown once, by createApiKey or rotateApiKey.',
})
export class ApiKey {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  tenantId!: string;

  @Field()
  name!: string;

  @Field({ description: 'The visible start of the secret, e.g. `sk_live_ab12`, to recognise it.' })
  prefix!: string;

  @Field(() => [String], { description: 'Policies the key may use; empty: every policy.' })
  policyNames!: string[];

  @Field(() => [ApiKeyScopeEnum])
  scopes!: ApiKeyScope[];

  @Field(() => Date, {
    nullable: true,
    description: 'Its latest use by the data plane (recorded within seconds); null: never used.',
  })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'Refused after this; null: never expires.' })
  expiresAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'Refused since this; null: not revoked.' })
  revokedAt!: Date | null;

  @Field()
  createdAt!: Date;
}

@ObjectType()
export class ApiKeyConnection extends ConnectionType(ApiKey) {}

@ObjectType()
export class ApiKeySecretPayload {
  @Field(() => ApiKey)
  apiKey!: ApiKey;

  @Field({
    description:
      'The secret (`sk_live_…`), for `Authorization: Bearer`. Shown only in this answer: it is stored as a SHA-256 alone and cannot be read again.',
  })
  secret!: string;
}
