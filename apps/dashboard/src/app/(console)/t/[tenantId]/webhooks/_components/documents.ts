import { graphql } from '@/generated/gql';

export const WebhookEndpointFieldsFragment = graphql(`
  fragment WebhookEndpointFields on WebhookEndpoint {
    id
    tenantId
    name
    url
    leakRatePerSec
    queueCapacity
    maxAttempts
    enabled
    previousSecretExpiresAt
    createdAt
    updatedAt
  }
`);

export const WebhookEndpointsDocument = graphql(`
  query WebhookEndpoints($tenantId: ID!) {
    webhookEndpoints(tenantId: $tenantId) {
      ...WebhookEndpointFields
    }
  }
`);

/** One endpoint with its queue's figures now (read once: live views are another page's). */
export const WebhookEndpointDocument = graphql(`
  query WebhookEndpoint($id: ID!) {
    webhookEndpoint(id: $id) {
      ...WebhookEndpointFields
      queue {
        depth
        inFlight
        delivered
        failed
        dead
        consecutiveFailures
        oldestWaitingMs
        pausedUntil
      }
    }
  }
`);

export const CreateWebhookEndpointDocument = graphql(`
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      secret
      endpoint {
        ...WebhookEndpointFields
      }
    }
  }
`);

export const UpdateWebhookEndpointDocument = graphql(`
  mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) {
      ...WebhookEndpointFields
    }
  }
`);

export const RotateWebhookSecretDocument = graphql(`
  mutation RotateWebhookSecret($id: ID!, $keepPreviousSeconds: Int!) {
    rotateWebhookEndpointSecret(id: $id, keepPreviousSeconds: $keepPreviousSeconds) {
      secret
      endpoint {
        ...WebhookEndpointFields
      }
    }
  }
`);

export const DeleteWebhookEndpointDocument = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`);
