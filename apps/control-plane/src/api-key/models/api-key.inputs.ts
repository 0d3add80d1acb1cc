import { Field, ID, InputType } from '@nestjs/graphql';
import type { ApiKeyScope } from '@sluice/policy';
import { ApiKeyScopeEnum, type ApiKeyStatus, ApiKeyStatusEnum } from './api-key.model';

@InputType()
export class ApiKeyFilter {
  @Field(() => Boolean, {
    nullable: true,
    description: 'true: only revoked keys; false: only keys not revoked; absent: both.',
  })
  revoked?: boolean | null;

  @Field(() => ApiKeyStatusEnum, {
    nullable: true,
    description: 'Only keys in this state (evaluated now); absent: every state.',
  })
  status?: ApiKeyStatus | null;

  @Field(() => String, {
    nullable: true,
    description: 'Part of the name (any case), or the start of the prefix (`sk_live_ab`).',
  })
  search?: string | null;
}

@InputType()
export class CreateApiKeyInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: '1 to 100 characters.' })
  name!: string;

  @Field(() => [String], {
    nullable: true,
    description:
      'Policy names the key may use (they need not exist yet); absent or empty: every policy.',
  })
  policyNames?: string[] | null;

  @Field(() => [ApiKeyScopeEnum], { nullable: true, description: 'Absent: [CHECK].' })
  scopes?: ApiKeyScope[] | null;

  @Field(() => Date, { nullable: true, description: 'In the future; absent: never expires.' })
  expiresAt?: Date | null;
}

@InputType({ description: 'Absent fields stay as they are.' })
export class UpdateApiKeyInput {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => [String], { nullable: true, description: 'Empty: every policy.' })
  policyNames?: string[] | null;

  @Field(() => [ApiKeyScopeEnum], { nullable: true })
  scopes?: ApiKeyScope[] | null;

  @Field(() => Date, {
    nullable: true,
    description: 'In the future; null: never expires; absent: unchanged.',
  })
  expiresAt?: Date | null;
}
