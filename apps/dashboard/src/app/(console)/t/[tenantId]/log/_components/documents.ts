import { graphql } from '@/generated/gql';

/** The policies whose decisions are logged, with their rules (the rule filter's choices). */
export const LogPoliciesDocument = graphql(`
  query LogPolicies($tenantId: ID!) {
    effectivePolicies(tenantId: $tenantId) {
      name
      rules {
        name
        candidate
      }
    }
  }
`);

export const DecisionLogDocument = graphql(`
  query DecisionLog(
    $tenantId: ID!
    $policy: String!
    $identifier: String
    $identifierPrefix: String
    $outcome: DecisionOutcome
    $rule: String
    $reason: String
    $from: DateTime
    $to: DateTime
    $after: String
  ) {
    decisionLog(
      tenantId: $tenantId
      policy: $policy
      identifier: $identifier
      identifierPrefix: $identifierPrefix
      outcome: $outcome
      rule: $rule
      reason: $reason
      from: $from
      to: $to
      after: $after
      first: 50
    ) {
      entries {
        ...DecisionLogEntryFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);
