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
        ...EffectiveRuleFields
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
        ...CounterResetFields
      }
    }
  }
`);

/** The tenant's own policies as stored (what the policy editor edits). */
export const TenantPoliciesDocument = graphql(`
  query TenantPolicies($tenantId: ID!) {
    tenantPolicies(tenantId: $tenantId) {
      ...PolicySettings
      rules {
        ...RuleParams
      }
    }
  }
`);

export const CreatePolicyDocument = graphql(`
  mutation CreatePolicy($tenantId: ID!, $input: PolicySettingsInput!) {
    createPolicy(tenantId: $tenantId, input: $input) {
      version
      policy {
        id
        name
      }
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);

export const UpdatePolicyDocument = graphql(`
  mutation UpdatePolicy($id: ID!, $input: PolicySettingsInput!) {
    updatePolicy(id: $id, input: $input) {
      version
      policy {
        id
        name
      }
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);

export const DeletePolicyDocument = graphql(`
  mutation DeletePolicy($id: ID!) {
    deletePolicy(id: $id) {
      version
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);

/** What each policy's rules and candidate rules denied over a range (the shadow trials' figures). */
export const ShadowTrialTotalsDocument = graphql(`
  query ShadowTrialTotals($tenantId: ID!, $from: DateTime!, $to: DateTime!) {
    usageTotals(tenantId: $tenantId, from: $from, to: $to) {
      policy
      denied
      deniedByRule {
        rule
        count
      }
      candidateDeniedByRule {
        rule
        count
      }
    }
  }
`);
