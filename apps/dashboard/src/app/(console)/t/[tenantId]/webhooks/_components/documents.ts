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

/** One endpoint with its queue now: figures, latest attempts and dead letters (the page polls it). */
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
        timeToDrainMs
        recentDeliveries {
          id
          eventId
          eventType
          attempt
          status
          responseCode
          latencyMs
          error
          createdAt
        }
        deadLetters {
          eventId
          eventType
          diedAt
          lastError
        }
      }
    }
  }
`);

export const ReplayDeadLetterDocument = graphql(`
  mutation ReplayDeadLetter($endpointId: ID!, $eventId: ID!) {
    replayWebhookDeadLetter(endpointId: $endpointId, eventId: $eventId) {
      replayed
      missing
      remaining
    }
  }
`);

export const ReplayDeadLettersDocument = graphql(`
  mutation ReplayDeadLetters($endpointId: ID!, $since: DateTime) {
    replayWebhookDeadLetters(endpointId: $endpointId, since: $since) {
      replayed
      missing
      remaining
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
