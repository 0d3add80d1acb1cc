import { graphql } from '@/generated/gql';

/** Try in shadow: a proposal run as candidate rules, then applied or discarded. */

export const CandidateRulesResultFragment = graphql(`
  fragment CandidateRulesResult on CandidateRulesPayload {
    policy {
      id
      name
    }
    tenantsRepublished
    tenantsTrimmed
    countersReset {
      ...CounterResetFields
    }
  }
`);

export const TryCandidateRulesDocument = graphql(`
  mutation TryCandidateRules($input: TryCandidateRulesInput!) {
    tryCandidateRules(input: $input) {
      ...CandidateRulesResult
    }
  }
`);

export const ApplyCandidateRulesDocument = graphql(`
  mutation ApplyCandidateRules($policyId: ID!) {
    applyCandidateRules(policyId: $policyId) {
      ...CandidateRulesResult
    }
  }
`);

export const DiscardCandidateRulesDocument = graphql(`
  mutation DiscardCandidateRules($policyId: ID!) {
    discardCandidateRules(policyId: $policyId) {
      ...CandidateRulesResult
    }
  }
`);

/** A tenant's candidates for one of its plan's policies, for its checks alone. */
export const PlanPolicyCandidatesResultFragment = graphql(`
  fragment PlanPolicyCandidatesResult on EffectivePolicyPayload {
    version
    policy {
      id
      name
    }
    countersReset {
      ...CounterResetFields
    }
  }
`);

export const TryPlanPolicyCandidatesDocument = graphql(`
  mutation TryPlanPolicyCandidates($input: TryPlanPolicyCandidatesInput!) {
    tryPlanPolicyCandidates(input: $input) {
      ...PlanPolicyCandidatesResult
    }
  }
`);

export const ApplyPlanPolicyCandidatesDocument = graphql(`
  mutation ApplyPlanPolicyCandidates($tenantId: ID!, $policy: String!) {
    applyPlanPolicyCandidates(tenantId: $tenantId, policy: $policy) {
      ...PlanPolicyCandidatesResult
    }
  }
`);

export const DiscardPlanPolicyCandidatesDocument = graphql(`
  mutation DiscardPlanPolicyCandidates($tenantId: ID!, $policy: String!) {
    discardPlanPolicyCandidates(tenantId: $tenantId, policy: $policy) {
      ...PlanPolicyCandidatesResult
    }
  }
`);

export const EstimateRulesDocument = graphql(`
  query EstimateRules($input: EstimateRulesInput!) {
    estimateRules(input: $input) {
      identifiers
      rules {
        name
        wouldExceed
        deniedCost
        examples
        outlastsRange
      }
    }
  }
`);
