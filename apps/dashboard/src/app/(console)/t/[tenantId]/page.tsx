'use client';

import { Badge, Card, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { EmptyState, QueryState } from '@/components/query-state';
import { TenantStatusBadge } from '@/components/tenant-status-badge';
import { formatDateTime } from '@/lib/format';
import { roleLabel } from '@/lib/roles';
import { useSession } from '@/lib/session';
import { TenantOverviewDocument } from './_components/documents';
import { PolicyCards } from './_components/policy-cards';
import { UsageChart } from './_components/usage-chart';
import type { Range } from './_components/usage-series';
import { useLiveUsage } from './_hooks/use-live-usage';
import { useOverviewFilters } from './_hooks/use-overview-filters';
import { useUsageChart } from './_hooks/use-usage-chart';

export default function TenantOverviewPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const { roleIn, isOperator } = useSession();
  const [{ data, fetching, error }] = useQuery({
    query: TenantOverviewDocument,
    variables: { id: tenantId },
  });
  const tenant = data?.tenant;
  const you = isOperator
    ? 'You operate the platform.'
    : `You are its ${roleLabel(roleIn(tenantId) ?? '')}.`;
  return (
    <QueryState fetching={fetching} error={error} hasData={Boolean(tenant)}>
      {tenant && (
        <Stack>
          <PageHeader
            title={tenant.name}
            description={
              <>
                Tenant {tenant.slug} on the {tenant.plan.name} plan, created{' '}
                {formatDateTime(tenant.createdAt)}; its policies{' '}
                {tenant.publication.redisVersion === null
                  ? 'are not published yet'
                  : `are published at version ${tenant.publication.redisVersion}`}
                . {you}
              </>
            }
            actions={
              <>
                {tenant.publication.pending && <Badge color="yellow">publishing</Badge>}
                <TenantStatusBadge status={tenant.status} />
              </>
            }
          />
          <LiveUsage tenantId={tenantId} />
        </Stack>
      )}
    </QueryState>
  );
}

/** The tenant's traffic: a card per published policy and the chosen policy's chart. */
function LiveUsage({ tenantId }: { tenantId: string }) {
  const [filters, setFilters] = useOverviewFilters();
  const [live, setLive] = useState(true);
  const { live: usage, error: liveError } = useLiveUsage(tenantId, !live);
  const clockOffset = usage?.clockOffset;
  // the chart's series is read up to this instant of the control plane's clock, known from the
  // first snapshot; moved when what the chart shows changes
  const [anchor, setAnchor] = useState<number>();
  useEffect(() => {
    if (anchor === undefined && clockOffset !== undefined) setAnchor(Date.now() + clockOffset);
  }, [anchor, clockOffset]);
  const reanchor = () => setAnchor(Date.now() + (clockOffset ?? 0));
  const policies = usage?.policies ?? [];
  const policy =
    filters.policy !== null && policies.some((p) => p.policy === filters.policy)
      ? filters.policy
      : policies[0]?.policy;
  const chart = useUsageChart({
    tenantId,
    policy,
    range: filters.range,
    anchor,
    liveSeconds: policies.find((p) => p.policy === policy)?.seconds,
  });
  const show = (change: { policy?: string; range?: Range }) => {
    reanchor();
    void setFilters(change);
  };

  return (
    <Stack component="section" aria-labelledby="traffic" gap="sm">
      <Title order={2} size="h3" id="traffic">
        Traffic
      </Title>
      {usage === undefined && !liveError ? (
        <Text c="dimmed" size="sm">
          Connecting to live usage…
        </Text>
      ) : policies.length === 0 && !liveError ? (
        <Card withBorder>
          <EmptyState title="No policy published yet">
            Each published policy gets a card here with its checks per second and denials, live.
          </EmptyState>
        </Card>
      ) : (
        <>
          <PolicyCards
            policies={policies}
            selected={policy}
            onSelect={(name) => show({ policy: name })}
          />
          {policy !== undefined && (
            <UsageChart
              policy={policy}
              range={filters.range}
              onRange={(range) => show({ range })}
              live={live}
              onLive={(on) => {
                // resuming reads the series again: it fills the seconds missed while paused
                if (on) reanchor();
                setLive(on);
              }}
              {...chart}
              liveError={liveError}
            />
          )}
        </>
      )}
    </Stack>
  );
}
