import { graphql } from '@/generated/gql';

/** The policies a check can name: the tenant's published ones. */
export const PlaygroundPoliciesDocument = graphql(`
  query PlaygroundPolicies($tenantId: ID!) {
    effectivePolicies(tenantId: $tenantId) {
      name
    }
  }
`);

export const PlaygroundDecisionFieldsFragment = graphql(`
  fragment PlaygroundDecisionFields on PlaygroundDecision {
    identifier
    allowed
    reason
    deniedBy
    overrideId
    limit
    remaining
    resetAt
    retryAfterMs
    rules {
      ...LoggedRuleFields
    }
    candidates {
      ...LoggedRuleFields
    }
    headers {
      name
      value
    }
    status
    gatewayStatus
    problemDetail
  }
`);

export const PlaygroundCheckDocument = graphql(`
  mutation PlaygroundCheck($input: PlaygroundCheckInput!) {
    playgroundCheck(input: $input) {
      identifier
      realIdentifier
      allowed
      denied
      elapsedMs
      decisions {
        ...PlaygroundDecisionFields
      }
    }
  }
`);

export const PlaygroundPeekDocument = graphql(`
  query PlaygroundPeek(
    $tenantId: ID!
    $policy: String!
    $identifier: String!
    $realIdentifier: Boolean!
  ) {
    playgroundPeek(
      tenantId: $tenantId
      policy: $policy
      identifier: $identifier
      realIdentifier: $realIdentifier
    ) {
      ...PlaygroundDecisionFields
    }
  }
`);

export const AlgorithmComparisonDocument = graphql(`
  query AlgorithmComparison($pattern: ArrivalPattern!, $limit: Int!, $windowSeconds: Int!) {
    algorithmComparison(pattern: $pattern, limit: $limit, windowSeconds: $windowSeconds) {
      pattern
      limit
      windowMs
      bucketMs
      arrivals
      algorithms {
        algorithm
        admitted
        perBucket
        mostInAnyWindow
        mostInAnyWindowRatio
      }
    }
  }
`);
