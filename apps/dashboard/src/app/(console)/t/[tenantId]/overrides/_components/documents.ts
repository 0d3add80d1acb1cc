import { graphql } from '@/generated/gql';

export const OverridesDocument = graphql(`
  query Overrides(
    $tenantId: ID!
    $policy: String
    $search: String
    $includeExpired: Boolean
    $after: String
  ) {
    overrides(
      tenantId: $tenantId
      first: 20
      policy: $policy
      search: $search
      includeExpired: $includeExpired
      after: $after
    ) {
      nodes {
        ...OverrideFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

/** The policies an override may change, with their rules' values and the plan's bounds. */
export const OverridablePoliciesDocument = graphql(`
  query OverridablePolicies($tenantId: ID!) {
    effectivePolicies(tenantId: $tenantId) {
      id
      name
      source
      rules {
        ...EffectiveRuleFields
      }
    }
  }
`);

export const CreateOverrideDocument = graphql(`
  mutation CreateOverride($input: CreateOverrideInput!) {
    createOverride(input: $input) {
      version
      override {
        id
        identifier
      }
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);

export const UpdateOverrideDocument = graphql(`
  mutation UpdateOverride($id: ID!, $input: UpdateOverrideInput!) {
    updateOverride(id: $id, input: $input) {
      version
      override {
        id
        identifier
      }
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);

export const DeleteOverrideDocument = graphql(`
  mutation DeleteOverride($id: ID!) {
    deleteOverride(id: $id) {
      version
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);
