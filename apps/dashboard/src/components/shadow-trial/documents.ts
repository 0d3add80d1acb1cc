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
