import { graphql } from '@/generated/gql';

export const MembersDocument = graphql(`
  query Members($tenantId: ID!, $search: String, $after: String) {
    members(tenantId: $tenantId, search: $search, first: 20, after: $after) {
      nodes {
        id
        userId
        tenantId
        name
        email
        role
        since
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

export const InvitationsDocument = graphql(`
  query Invitations($tenantId: ID!, $search: String, $after: String) {
    invitations(tenantId: $tenantId, search: $search, first: 20, after: $after) {
      nodes {
        id
        email
        role
        createdAt
        expiresAt
      }
      pageInfo {
        hasNextPage
        endCursor
      }
      totalCount
    }
  }
`);

export const InviteMemberDocument = graphql(`
  mutation InviteMember($input: InviteMemberInput!) {
    inviteMember(input: $input) {
      id
      email
      role
    }
  }
`);

export const RevokeInvitationDocument = graphql(`
  mutation RevokeInvitation($id: ID!) {
    revokeInvitation(id: $id)
  }
`);

export const ChangeMemberRoleDocument = graphql(`
  mutation ChangeMemberRole($input: ChangeMemberRoleInput!) {
    changeMemberRole(input: $input) {
      id
      role
    }
  }
`);

export const RemoveMemberDocument = graphql(`
  mutation RemoveMember($tenantId: ID!, $userId: ID!) {
    removeMember(tenantId: $tenantId, userId: $userId)
  }
`);
