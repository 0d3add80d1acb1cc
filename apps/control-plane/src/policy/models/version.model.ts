import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { DocumentChangeKind, DocumentFormat } from '../../policy-config/policy-document';
import { ConnectionType, PageArgs } from '../../graphql/pagination';
import { COUNTERS_RESET, CounterReset } from './counter-reset.model';

export const DocumentFormatEnum = { YAML: 'yaml', JSON: 'json' } as const satisfies Record<
  string,
  DocumentFormat
>;
registerEnumType(DocumentFormatEnum, { name: 'DocumentFormat' });

export const VersionReasonEnum = {
  PUBLISH: 'publish',
  ROLLBACK: 'rollback',
  IMPORT: 'import',
} as const;
registerEnumType(VersionReasonEnum, { name: 'VersionReason' });

export const DocumentChangeKindEnum = {
  ADDED: 'added',
  REMOVED: 'removed',
  CHANGED: 'changed',
} as const satisfies Record<string, DocumentChangeKind>;
registerEnumType(DocumentChangeKindEnum, { name: 'DocumentChangeKind' });

@ObjectType({
  description:
    "An immutable, numbered snapshot of a tenant's effective policies, as published. Versions only grow.",
})
export class PolicyVersion {
  @Field(() => Int)
  version!: number;

  @Field(() => VersionReasonEnum)
  reason!: 'publish' | 'rollback' | 'import';

  @Field(() => Int, { nullable: true, description: 'ROLLBACK: the version whose content it is.' })
  rolledBackFrom!: number | null;

  @Field(() => ID, { nullable: true, description: 'The user who made it (null: the system).' })
  createdById!: string | null;

  @Field()
  createdAt!: Date;
}

@ObjectType()
export class PolicyVersionConnection extends ConnectionType(PolicyVersion) {}

@ArgsType()
export class PolicyVersionsArgs extends PageArgs {
  @Field(() => ID)
  tenantId!: string;
}

@InputType()
export class ImportPoliciesInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: 'A document as exportPolicies writes it.' })
  document!: string;

  @Field(() => DocumentFormatEnum, { nullable: true, description: 'Default YAML (JSON is YAML).' })
  format?: DocumentFormat | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Validate and show the differences; change nothing.',
  })
  dryRun?: boolean | null;
}

@ObjectType({ description: 'One difference, at the level of a policy, a change or an override.' })
export class DocumentDiff {
  @Field({ description: 'e.g. policies.reports, changes.api, overrides.api.premium_*' })
  path!: string;

  @Field(() => DocumentChangeKindEnum)
  kind!: DocumentChangeKind;

  @Field(() => String, { nullable: true, description: 'JSON of the value before.' })
  before!: string | null;

  @Field(() => String, { nullable: true, description: 'JSON of the value after.' })
  after!: string | null;
}

@ObjectType()
export class PolicyChangeResult {
  @Field({ description: 'True: nothing was changed (a dry run).' })
  dryRun!: boolean;

  @Field(() => [DocumentDiff])
  changes!: DocumentDiff[];

  @Field(() => Int, { nullable: true, description: 'The version written (null for a dry run).' })
  version!: number | null;

  @Field(() => [CounterReset], {
    description: `${COUNTERS_RESET} A dry run lists those the change would leave behind.`,
  })
  countersReset!: CounterReset[];
}
