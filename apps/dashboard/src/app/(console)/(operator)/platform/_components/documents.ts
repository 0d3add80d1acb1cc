import { graphql } from '@/generated/gql';

/** Everything the platform view shows, read in one request every few seconds. */
export const PlatformDocument = graphql(`
  query Platform($range: PlatformRange!) {
    platform {
      at
      traffic(range: $range, top: 8) {
        resolution
        rolledUpTo
        allowed
        denied
        activeTenants
        points {
          at
          allowed
          denied
        }
        topByChecks {
          tenantId
          name
          allowed
          denied
        }
        topByDenied {
          tenantId
          name
          allowed
          denied
        }
      }
      publication {
        pending
        retrying
        oldestPendingAt
        lastPublishedAt
        lastError
        lastErrorTenantId
      }
      dataPlanes {
        instance
        live
        lastSeenAt
        version
        host
        startedAt
        checksPerSecond
        deniedPerSecond
        checks
        pendingUsage
        redis {
          connections {
            role
            status
          }
          roundTripMs
          clockUncertaintyMs
          openCircuits
        }
        cache {
          tenants
          keys
          behind
          behindTenantIds
        }
      }
      workers {
        instance
        live
        lastSeenAt
        version
        host
        queues {
          name
          running
          waiting
          active
          delayed
          failed
        }
      }
    }
  }
`);
