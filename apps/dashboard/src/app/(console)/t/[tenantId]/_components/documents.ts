import { graphql } from '@/generated/gql';

export const TenantOverviewDocument = graphql(`
  query TenantOverview($id: ID!) {
    tenant(id: $id) {
      id
      name
      slug
      status
      createdAt
      plan {
        id
        name
        slug
      }
      publication {
        version
        redisVersion
        pending
      }
    }
  }
`);

/** Each published policy's last seconds and last minute, every second. */
export const LiveUsageDocument = graphql(`
  subscription LiveUsage($tenantId: ID!) {
    usageUpdated(tenantId: $tenantId) {
      at
      policies {
        policy
        seconds {
          at
          allowed
          denied
          shadowDenied
          candidateDenied
        }
        lastMinute {
          allowed
          denied
          shadowDenied
          candidateDenied
          failOpen
          deniedByRule {
            rule
            count
          }
        }
      }
    }
  }
`);

/** One policy's outcomes over a range, per second up to per day. */
export const UsageChartDocument = graphql(`
  query UsageChart($input: UsageSeriesInput!) {
    usageSeries(input: $input) {
      from
      to
      resolution
      points {
        at
        allowed
        denied
        shadowDenied
        candidateDenied
      }
    }
  }
`);

/** Each policy's totals over a range: the "why denied" breakdowns. */
export const UsageBreakdownDocument = graphql(`
  query UsageBreakdown($tenantId: ID!, $from: DateTime!, $to: DateTime!) {
    usageTotals(tenantId: $tenantId, from: $from, to: $to) {
      policy
      denied
      failOpen
      deniedByRule {
        rule
        count
      }
      deniedByReason {
        reason
        count
      }
      shadowDeniedByRule {
        rule
        count
      }
      candidateDeniedByRule {
        rule
        count
      }
    }
  }
`);

/** A policy's heaviest or most denied identifiers over a range of the last 15 minutes. */
export const TopIdentifiersDocument = graphql(`
  query TopIdentifiers(
    $tenantId: ID!
    $policy: String!
    $from: DateTime!
    $to: DateTime!
    $by: TopIdentifiersBy!
  ) {
    topIdentifiers(tenantId: $tenantId, policy: $policy, from: $from, to: $to, by: $by, limit: 10) {
      identifier
      cost
      denied
      quota {
        rule
        used
        remaining
        limit
        runsOutAt
      }
    }
  }
`);
