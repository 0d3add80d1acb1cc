import { Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { CounterReset, COUNTERS_RESET } from '../../policy/models/counter-reset.model';
import { Policy } from '../../policy/models/policy.model';
import { RuleInput } from '../../policy/models/rule.model';

@InputType()
export class TryCandidateRulesInput {
  @Field(() => ID, { description: "A tenant's own policy, or a plan's template (operators)." })
  policyId!: string;

  @Field(() => [RuleInput], {
    description:
      "The proposal, in place of the policy's candidate rules: each names the live rule it proposes new values for (`replaces`), or is a new rule. No concurrency rules.",
  })
  candidateRules!: RuleInput[];
}

@InputType()
export class TryPlanPolicyCandidatesInput {
  @Field(() => ID)
  tenantId!: string;

  @Field({ description: "The name of one of the tenant's plan's policies." })
  policy!: string;

  @Field(() => [RuleInput], {
    description:
      "The tenant's proposal, in place of its candidates for the policy: each `replaces` one of the policy's rules, with its algorithm, and differs from the plan's values only in parameters the plan lets the tenant change, within their bounds (parameters left out take the plan's values).",
  })
  candidateRules!: RuleInput[];
}

@ObjectType()
export class CandidateRulesPayload {
  @Field(() => Policy, { description: 'The policy (a template: the plan’s) as it now is.' })
  policy!: Policy;

  @Field(() => Int, {
    description:
      "Tenants given a new version: the policy's tenant, or every tenant on a template's plan whose effective policies changed.",
  })
  tenantsRepublished!: number;

  @Field(() => Int, {
    description:
      "A template's tenants whose own changes or overrides no longer fitted it and were trimmed (see the audit log); 0 for a tenant's own policy.",
  })
  tenantsTrimmed!: number;

  @Field(() => [CounterReset], { description: COUNTERS_RESET })
  countersReset!: CounterReset[];
}
