import { graphql } from '@/generated/gql';

export const TenantsDocument = graphql(`
  query Tenants($search: String, $status: TenantStatus, $planId: ID, $after: String) {
    tenants(first: 20, search: $search, status: $status, planId: $planId, after: $after) {
      nodes {
        id
        name
        slug
        status
        createdAt
        plan {
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

export const PlanChoicesDocument = graphql(`
  query PlanChoices {
    plans(first: 100) {
      nodes {
        id
        name
        slug
      }
    }
  }
`);

export const CreateTenantDocument = graphql(`
  mutation CreateTenant($input: CreateTenantInput!) {
    createTenant(input: $input) {
      id
      slug
    }
  }
`);

export const MoveTenantDocument = graphql(`
  mutation MoveTenant($id: ID!, $planId: ID!) {
    updateTenant(id: $id, input: { planId: $planId }) {
      id
      plan {
        id
        name
      }
    }
  }
`);

export const SetTenantStatusDocument = graphql(`
  mutation SetTenantStatus($id: ID!, $status: TenantStatus!) {
    setTenantStatus(id: $id, status: $status) {
      id
      status
    }
  }
`);

export const DeleteTenantDocument = graphql(`
  mutation DeleteTenant($id: ID!) {
    deleteTenant(id: $id)
  }
`);
