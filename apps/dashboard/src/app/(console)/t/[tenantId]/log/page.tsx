'use client';

import { Card, Group, Select, Stack, Switch } from '@mantine/core';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useQuery } from 'urql';
import { EntryDrawer } from '@/components/decision-entry-drawer';
import { LogTable, type LogEntry } from '@/components/decision-log-table';
import { identifierPath, newOverridePath } from '@/components/navigation';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { useSession } from '@/lib/session';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { DecisionLogDocument, LogPoliciesDocument } from './_components/documents';
import { LogFilters } from './_components/log-filters';
import { useLogFilters } from './_hooks/use-log-filters';

/** A live tail reads the newest entries this often (ms). */
const TAIL_INTERVAL_MS = 2000;

export default function RequestLogPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const writer = useSession().canWrite(tenantId);
  const { filters, filtered, setFilter, clear, setAfter } = useLogFilters();
  const [open, setOpen] = useState<LogEntry>();
  const [policies] = useQuery({ query: LogPoliciesDocument, variables: { tenantId } });
  const policyList = policies.data?.effectivePolicies ?? [];
  const policy = filters.policy ?? policyList[0]?.name;
  const identifier = filters.identifier || null;
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: DecisionLogDocument,
    variables: {
      tenantId,
      policy: policy ?? '',
      identifier: filters.match === 'exact' ? identifier : null,
      identifierPrefix: filters.match === 'prefix' ? identifier : null,
      outcome: filters.outcome,
      rule: filters.rule,
      reason: filters.reason,
      from: filters.from?.toISOString() ?? null,
      to: filters.to?.toISOString() ?? null,
      after: filters.after,
    },
    pause: policy === undefined,
    context: NETWORK_ONLY,
  });
  // the live tail reads the newest page again and again; older pages stay as they are
  const tailing = filters.live && filters.after === null;
  useRefresh(reexecute, tailing ? TAIL_INTERVAL_MS : undefined);

  const log = data?.decisionLog;
  const rules = policyList.find((p) => p.name === policy)?.rules.map((r) => r.name) ?? [];
  const overrideHref = writer
    ? (who: string) => newOverridePath(tenantId, policy ?? '', who)
    : undefined;

  return (
    <>
      <PageHeader
        title="Request log"
        description="Recent decisions of a policy: every denial and a sample of allows, kept 15 minutes after the last. Open one to see each rule's figures and the headers the caller received."
        actions={
          <Group gap="md" align="flex-end">
            <Switch
              mb={8}
              label="Live tail"
              checked={filters.live}
              onChange={(event) => setFilter({ live: event.currentTarget.checked })}
            />
            <Select
              label="Policy"
              data={policyList.map((p) => p.name)}
              value={policy ?? null}
              onChange={(value) => value && setFilter({ policy: value, rule: null })}
              allowDeselect={false}
              w={200}
            />
          </Group>
        }
      />
      <Stack gap="md">
        <LogFilters
          filters={filters}
          filtered={filtered}
          rules={rules}
          setFilter={setFilter}
          clear={clear}
        />
        <Card withBorder p={0}>
          <QueryState
            fetching={fetching || policies.fetching}
            error={error ?? policies.error}
            hasData={Boolean(log) || (policies.data !== undefined && policy === undefined)}
          >
            {policy === undefined ? (
              <EmptyState title="No policy yet">
                The log lists the decisions of a policy: publish one first.
              </EmptyState>
            ) : log && log.entries.length === 0 ? (
              <EmptyState title={filtered ? 'No decision matches' : 'No decisions yet'}>
                {filtered
                  ? 'Change or clear the filters.'
                  : `Checks of ${policy} show here: every denial, and a sample of allows.`}
              </EmptyState>
            ) : (
              log && <LogTable entries={log.entries} onOpen={setOpen} />
            )}
          </QueryState>
        </Card>
        <Pager
          connection={log && { nodes: log.entries, pageInfo: log.pageInfo }}
          after={filters.after}
          onAfterChange={setAfter}
          noun="decisions"
        />
      </Stack>
      <EntryDrawer
        entry={open}
        policy={policy ?? ''}
        overrideHref={overrideHref}
        identifierHref={(who) => identifierPath(tenantId, policy ?? '', who)}
        onClose={() => setOpen(undefined)}
      />
    </>
  );
}
