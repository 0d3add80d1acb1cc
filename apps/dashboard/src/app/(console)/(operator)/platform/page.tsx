'use client';

import { Card, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { formatNumber } from '@/lib/format';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { ageOf, perSecond } from './_components/ages';
import { DataPlanes } from './_components/data-planes';
import { PlatformDocument } from './_components/documents';
import { PublicationCard } from './_components/publication-card';
import { TopTenants } from './_components/top-tenants';
import { TrafficCard } from './_components/traffic-card';
import { Workers } from './_components/workers';
import { type PlatformRange, usePlatformRange } from './_hooks/use-platform-range';

/** The page reads everything again this often (ms) while live: heartbeats come every 5 s. */
const REFRESH_MS = 5000;
const SPAN_LABELS: Record<PlatformRange, string> = {
  HOUR: 'last hour',
  DAY: 'last 24 h',
  WEEK: 'last 7 days',
};

function Headline({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </Card>
  );
}

export default function PlatformPage() {
  const [range, setRange] = usePlatformRange();
  const [live, setLive] = useState(true);
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: PlatformDocument,
    variables: { range },
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, live ? REFRESH_MS : undefined);
  const platform = data?.platform;
  const livePlanes = platform?.dataPlanes.filter((plane) => plane.live) ?? [];
  const checksNow = livePlanes.reduce((sum, plane) => sum + (plane.checksPerSecond ?? 0), 0);
  const deniedNow = livePlanes.reduce((sum, plane) => sum + (plane.deniedPerSecond ?? 0), 0);

  return (
    <>
      <PageHeader
        title="Platform"
        description="Every tenant’s traffic, publication to the data planes, and each running data plane and worker."
        actions={
          <Switch
            label="Live updates"
            checked={live}
            onChange={(event) => setLive(event.currentTarget.checked)}
          />
        }
      />
      <QueryState fetching={fetching} error={error} hasData={Boolean(platform)}>
        {platform && (
          <Stack>
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Headline
                label="Checks now"
                value={perSecond(checksNow)}
                note={`${perSecond(deniedNow)} denied, over the data planes’ last beats`}
              />
              <Headline
                label="Data planes"
                value={`${livePlanes.length} live`}
                note={`${platform.dataPlanes.length - livePlanes.length} silent within the hour`}
              />
              <Headline
                label={`Tenants with checks, ${SPAN_LABELS[range]}`}
                value={formatNumber(platform.traffic.activeTenants)}
                note={`${formatNumber(platform.traffic.allowed + platform.traffic.denied)} checks`}
              />
              <Headline
                label="Publication lag"
                value={
                  platform.publication.oldestPendingAt
                    ? ageOf(platform.publication.oldestPendingAt, platform.at)
                    : 'none'
                }
                note={`${formatNumber(platform.publication.pending)} events waiting`}
              />
            </SimpleGrid>
            <TrafficCard traffic={platform.traffic} range={range} onRange={setRange} />
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <TopTenants
                id="platform-top-checks"
                title="Top tenants by checks"
                tenants={platform.traffic.topByChecks}
                empty="No checks rolled up in this range yet."
              />
              <TopTenants
                id="platform-top-denied"
                title="Top tenants by denials"
                tenants={platform.traffic.topByDenied}
                empty="No denials rolled up in this range."
              />
            </SimpleGrid>
            <DataPlanes dataPlanes={platform.dataPlanes} now={platform.at} />
            <Workers workers={platform.workers} now={platform.at} />
            <PublicationCard publication={platform.publication} now={platform.at} />
          </Stack>
        )}
      </QueryState>
    </>
  );
}
