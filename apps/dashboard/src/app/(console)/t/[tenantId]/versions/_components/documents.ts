import { graphql } from '@/generated/gql';

export const PolicyVersionsDocument = graphql(`
  query PolicyVersions($tenantId: ID!, $after: String) {
    policyVersions(tenantId: $tenantId, first: 10, after: $after) {
      nodes {
        version
        reason
        rolledBackFrom
        createdById
        createdAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

/** The newest versions, for the comparison's choices. */
export const VersionChoicesDocument = graphql(`
  query VersionChoices($tenantId: ID!) {
    policyVersions(tenantId: $tenantId, first: 100) {
      nodes {
        version
        createdAt
      }
    }
  }
`);

/** Who made the versions: the tenant's members… */
export const VersionMembersDocument = graphql(`
  query VersionMembers($tenantId: ID!) {
    members(tenantId: $tenantId, first: 100) {
      nodes {
        userId
        name
      }
    }
  }
`);

/** …and, for operators, the operators (a query of its own: both lists exceed the API's cost). */
export const VersionOperatorsDocument = graphql(`
  query VersionOperators {
    operators(first: 100) {
      nodes {
        userId
        name
      }
    }
  }
`);

export const ExportPoliciesDocument = graphql(`
  query ExportPolicies($tenantId: ID!, $format: DocumentFormat!, $version: Int) {
    exportPolicies(tenantId: $tenantId, format: $format, version: $version)
  }
`);

/** An export to download, with the tenant's slug to name the file. */
export const DownloadPoliciesDocument = graphql(`
  query DownloadPolicies($tenantId: ID!, $format: DocumentFormat!, $version: Int) {
    exportPolicies(tenantId: $tenantId, format: $format, version: $version)
    tenant(id: $tenantId) {
      id
      slug
    }
  }
`);

export const ImportPoliciesDocument = graphql(`
  mutation ImportPolicies($input: ImportPoliciesInput!) {
    importPolicies(input: $input) {
      dryRun
      version
      changes {
        path
        kind
        before
        after
      }
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);

export const RollbackPoliciesDocument = graphql(`
  mutation RollbackPolicies($tenantId: ID!, $version: Int!) {
    rollbackPolicies(tenantId: $tenantId, version: $version) {
      version
      changes {
        path
        kind
      }
      countersReset {
        ...CounterResetFields
      }
    }
  }
`);
