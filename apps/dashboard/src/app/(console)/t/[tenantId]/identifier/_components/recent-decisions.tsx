'use client';

import { Anchor, Card, Group, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import { useState } from 'react';
import { useQuery } from 'urql';
import { EntryDrawer } from '@/components/decision-entry-drawer';
import { LogTable, type LogEntry } from '@/components/decision-log-table';
import { QueryState } from '@/components/query-state';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { IdentifierDecisionsDocument } from './documents';

/** The identifier's ten latest logged decisions (every denial, sampled allows), read again live. */
export function RecentDecisions({
  tenantId,
  policy,
  identifier,
  refreshMs,
  logHref,
  overrideHref,
}: {
  tenantId: string;
  policy: string;
  identifier: string;
  refreshMs: number;
  logHref: string;
  overrideHref: ((identifier: string) => string) | undefined;
}) {
  const [open, setOpen] = useState<LogEntry>();
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: IdentifierDecisionsDocument,
    variables: { tenantId, policy, identifier },
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, refreshMs);
  const entries = data?.decisionLog.entries;
  return (
    <Card withBorder component="section" aria-labelledby="identifier-decisions" p={0}>
      <Group justify="space-between" p="lg" pb="xs">
        <Title order={2} size="h4" id="identifier-decisions">
          Recent decisions
        </Title>
        <Anchor component={NextLink} href={logHref} size="sm">
          All its decisions in the request log
        </Anchor>
      </Group>
      <QueryState fetching={fetching} error={error} hasData={entries !== undefined}>
        {entries && entries.length === 0 ? (
          <Text size="sm" c="dimmed" px="lg" pb="lg">
            No decision of {identifier} in the last 15 minutes (the log keeps every denial and a
            sample of allows).
          </Text>
        ) : (
          entries && <LogTable entries={entries} onOpen={setOpen} />
        )}
      </QueryState>
      <EntryDrawer
        entry={open}
        policy={policy}
        overrideHref={overrideHref}
        onClose={() => setOpen(undefined)}
      />
    </Card>
  );
}
