'use client';

import { Badge, Stack } from '@mantine/core';
import { useParams } from 'next/navigation';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { TenantStatusBadge } from '@/components/tenant-status-badge';
import { formatDateTime } from '@/lib/format';
import { roleLabel } from '@/lib/roles';
import { useSession } from '@/lib/session';
import { TenantOverviewDocument } from './_components/documents';
import { LiveUsage } from './_components/live-usage';

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
