import { graphql } from '@/generated/gql';

export const ApiKeysDocument = graphql(`
  query ApiKeys($tenantId: ID!, $filter: ApiKeyFilter, $after: String) {
    apiKeys(tenantId: $tenantId, filter: $filter, first: 20, after: $after) {
      nodes {
        ...ApiKeyRow
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

export const ApiKeyRowFragment = graphql(`
  fragment ApiKeyRow on ApiKey {
    id
    tenantId
    name
    prefix
    scopes
    policyNames
    expiresAt
    revokedAt
    lastUsedAt
    createdAt
  }
`);

/** The tenant's policy names, offered when a key is restricted to some. */
export const KeyPolicyChoicesDocument = graphql(`
  query KeyPolicyChoices($tenantId: ID!) {
    effectivePolicies(tenantId: $tenantId) {
      id
      name
    }
  }
`);

export const CreateApiKeyDocument = graphql(`
  mutation CreateApiKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      secret
      apiKey {
        ...ApiKeyRow
      }
    }
  }
`);

export const UpdateApiKeyDocument = graphql(`
  mutation UpdateApiKey($input: UpdateApiKeyInput!) {
    updateApiKey(input: $input) {
      ...ApiKeyRow
    }
  }
`);

export const RotateApiKeyDocument = graphql(`
  mutation RotateApiKey($id: ID!) {
    rotateApiKey(id: $id) {
      secret
      apiKey {
        ...ApiKeyRow
      }
    }
  }
`);

export const RevokeApiKeyDocument = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      ...ApiKeyRow
    }
  }
`);
