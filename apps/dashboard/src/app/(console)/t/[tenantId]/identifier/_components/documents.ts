import { graphql } from '@/generated/gql';

/** The policies an identifier can be looked at under: the tenant's published ones. */
export const IdentifierPoliciesDocument = graphql(`
  query IdentifierPolicies($tenantId: ID!) {
    effectivePolicies(tenantId: $tenantId) {
      name
    }
  }
`);

export const IdentifierDecisionFieldsFragment = graphql(`
  fragment IdentifierDecisionFields on PlaygroundDecision {
    allowed
    reason
    deniedBy
    overrideId
    retryAfterMs
    rules {
      ...LoggedRuleFields
    }
    candidates {
      ...LoggedRuleFields
    }
  }
`);

export const IdentifierStateFieldsFragment = graphql(`
  fragment IdentifierStateFields on IdentifierState {
    identifier
    policy
    canReset
    now {
      ...IdentifierDecisionFields
    }
    next {
      ...IdentifierDecisionFields
    }
    overrides {
      ...OverrideFields
    }
  }
`);

export const IdentifierStateDocument = graphql(`
  query IdentifierState($tenantId: ID!, $policy: String!, $identifier: String!, $cost: Int!) {
    identifierState(tenantId: $tenantId, policy: $policy, identifier: $identifier, cost: $cost) {
      ...IdentifierStateFields
    }
  }
`);

export const ResetIdentifierDocument = graphql(`
  mutation ResetIdentifier($input: ResetIdentifierInput!) {
    resetIdentifier(input: $input) {
      deleted
    }
  }
`);

/** The identifier's latest decisions (every denial, sampled allows). */
export const IdentifierDecisionsDocument = graphql(`
  query IdentifierDecisions($tenantId: ID!, $policy: String!, $identifier: String!) {
    decisionLog(tenantId: $tenantId, policy: $policy, identifier: $identifier, first: 10) {
      entries {
        ...DecisionLogEntryFields
      }
    }
  }
`);
