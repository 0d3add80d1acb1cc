'use client';

import { Card } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { useSession } from '@/lib/session';
import { AuditFilters } from './_components/audit-filters';
import { AuditTable } from './_components/audit-table';
import { AuditLogDocument } from './_components/documents';
import { EntryDrawer, type AuditLogEntry } from './_components/entry-drawer';
import { useAuditFilters, type AuditFilterChange } from './_hooks/use-audit-filters';

export default function AuditPage() {
  const { tenants } = useSession();
  const { filters, filtered, setFilter, clear, setAfter } = useAuditFilters();
  const [open, setOpen] = useState<AuditLogEntry>();
  // filters set from an entry (its actor, its entity) redraw the filter fields with them
  const [filterVersion, setFilterVersion] = useState(0);
  const [{ data, fetching, error }] = useQuery({
    query: AuditLogDocument,
    variables: {
      action: filters.action.trim() || null,
      actorId: filters.actor,
      entityType: filters.entityType,
      entityId: filters.entityId || null,
      tenantId: filters.tenant,
      from: filters.from?.toISOString() ?? null,
      to: filters.to?.toISOString() ?? null,
      after: filters.after,
    },
  });
  const log = data?.auditLog;
  const tenantName = (id: string) => tenants.find((t) => t.id === id)?.name ?? id;
  const actorName = (id: string) => log?.nodes.find((e) => e.actorId === id)?.actorName ?? id;
  const filterFromEntry = (change: AuditFilterChange) => {
    setOpen(undefined);
    setFilter(change);
    setFilterVersion((v) => v + 1);
  };

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to the platform, newest first: who made it, when, and the values before and after."
      />
      <AuditFilters
        key={filterVersion}
        filters={filters}
        filtered={filtered}
        setFilter={setFilter}
        clear={clear}
        actorName={actorName}
        tenantName={tenantName}
      />
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(log)}>
          {log && log.nodes.length === 0 ? (
            <EmptyState title={filtered ? 'No entry matches' : 'No entries yet'}>
              {filtered
                ? 'Widen the time range or clear a filter.'
                : 'Each change made through the console or the API is recorded here.'}
            </EmptyState>
          ) : (
            <AuditTable entries={log?.nodes ?? []} tenantName={tenantName} onOpen={setOpen} />
          )}
        </QueryState>
      </Card>
      <Pager connection={log} after={filters.after} onAfterChange={setAfter} noun="entries" />
      <EntryDrawer
        entry={open}
        tenantName={tenantName}
        onClose={() => setOpen(undefined)}
        onFilter={filterFromEntry}
      />
    </>
  );
}
