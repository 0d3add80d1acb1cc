import { graphql } from '@/generated/gql';

export const PlansDocument = graphql(`
  query Plans($search: String, $after: String) {
    plans(first: 20, search: $search, after: $after) {
      nodes {
        id
        slug
        name
        description
        tenantCount
        slidingLogMaxLimit
        policies {
          id
          name
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

export const CreatePlanDocument = graphql(`
  mutation CreatePlan($input: CreatePlanInput!) {
    createPlan(input: $input) {
      id
      slug
    }
  }
`);

/** A plan with its templates, each rule with its values and the tenants' bounds. */
export const PlanDocument = graphql(`
  query Plan($id: ID!) {
    plan(id: $id) {
      id
      slug
      name
      description
      tenantCount
      slidingLogMaxLimit
      slidingLogLimitCap
      tenantCounterResets
      createdAt
      updatedAt
      policies {
        ...PolicySettings
        rules {
          ...RuleParams
          tenantBounds {
            param
            min
            max
          }
        }
      }
    }
  }
`);

export const UpdatePlanDocument = graphql(`
  mutation UpdatePlan($id: ID!, $input: UpdatePlanInput!) {
    updatePlan(id: $id, input: $input) {
      id
      name
      description
      slidingLogMaxLimit
      slidingLogLimitCap
      tenantCounterResets
      updatedAt
    }
  }
`);

export const DeletePlanDocument = graphql(`
  mutation DeletePlan($id: ID!) {
    deletePlan(id: $id)
  }
`);

export const CreatePlanPolicyDocument = graphql(`
  mutation CreatePlanPolicy($planId: ID!, $input: PolicySettingsInput!) {
    createPlanPolicy(planId: $planId, input: $input) {
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
  }
`);

export const UpdatePlanPolicyDocument = graphql(`
  mutation UpdatePlanPolicy($id: ID!, $input: PolicySettingsInput!) {
    updatePlanPolicy(id: $id, input: $input) {
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
  }
`);

export const DeletePlanPolicyDocument = graphql(`
  mutation DeletePlanPolicy($id: ID!) {
    deletePlanPolicy(id: $id) {
      tenantsRepublished
      tenantsTrimmed
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);
