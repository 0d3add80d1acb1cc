import { graphql } from '@/generated/gql';

export const UsersDocument = graphql(`
  query Users($search: String, $after: String) {
    users(first: 20, filter: { search: $search }, after: $after) {
      nodes {
        id
        email
        name
        createdAt
        disabledAt
        memberships {
          role
          tenantId
          tenantName
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

export const OperatorsDocument = graphql(`
  query Operators($after: String) {
    operators(first: 20, after: $after) {
      nodes {
        id
        userId
        email
        name
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

export const OperatorInvitationsDocument = graphql(`
  query OperatorInvitations($after: String) {
    invitations(first: 20, after: $after) {
      nodes {
        id
        email
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

export const SetUserDisabledDocument = graphql(`
  mutation SetUserDisabled($id: ID!, $disabled: Boolean!) {
    setUserDisabled(id: $id, disabled: $disabled) {
      id
      disabledAt
    }
  }
`);

export const InviteOperatorDocument = graphql(`
  mutation InviteOperator($email: String!) {
    inviteMember(input: { email: $email, role: OPERATOR }) {
      id
      email
      expiresAt
    }
  }
`);

export const RevokeInvitationDocument = graphql(`
  mutation RevokeInvitation($id: ID!) {
    revokeInvitation(id: $id)
  }
`);
