import { graphql } from '@/generated/gql';

/** Every policy the tenant's checks use, each value with where it comes from, and its overrides. */
export const EffectivePoliciesDocument = graphql(`
  query EffectivePolicies($tenantId: ID!) {
    effectivePolicies(tenantId: $tenantId) {
      id
      name
      description
      source
      changed
      mode
      failMode
      redisTimeoutMs
      reservationTtlMs
      rules {
        name
        algorithm
        candidate
        params {
          name
          value
          calendar {
            unit
            timeZone
          }
          source
          changeable
          min
          max
        }
      }
      overrides {
        id
        identifier
        match
        expiresAt
        expired
      }
    }
  }
`);

export const ChangePlanPolicyDocument = graphql(`
  mutation ChangePlanPolicy($input: ChangePlanPolicyInput!) {
    changePlanPolicy(input: $input) {
      version
      policy {
        id
        name
        changed
        rules {
          name
          params {
            name
            value
            source
          }
        }
      }
      countersReset {
        policy
        rule
        candidate
        override
        before
        after
      }
    }
  }
`);
