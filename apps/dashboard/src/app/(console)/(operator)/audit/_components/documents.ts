import { graphql } from '@/generated/gql';

export const AuditLogDocument = graphql(`
  query AuditLog(
    $action: String
    $actorId: ID
    $entityType: String
    $entityId: ID
    $tenantId: ID
    $from: DateTime
    $to: DateTime
    $after: String
  ) {
    auditLog(
      first: 25
      action: $action
      actorId: $actorId
      entityType: $entityType
      entityId: $entityId
      tenantId: $tenantId
      from: $from
      to: $to
      after: $after
    ) {
      nodes {
        id
        at
        action
        actorType
        actorId
        actorName
        tenantId
        entityType
        entityId
        before
        after
        requestId
        ip
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

export const ActorChoicesDocument = graphql(`
  query ActorChoices($search: String) {
    users(first: 20, filter: { search: $search }) {
      nodes {
        id
        email
        name
      }
    }
  }
`);

export const AuditTenantChoicesDocument = graphql(`
  query AuditTenantChoices($search: String) {
    tenants(first: 20, search: $search) {
      nodes {
        id
        name
        slug
      }
    }
  }
`);
