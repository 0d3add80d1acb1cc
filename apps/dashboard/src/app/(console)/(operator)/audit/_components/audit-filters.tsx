'use client';

import { Autocomplete, Button, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useQuery } from 'urql';
import { TimeRangePickers, type TimePreset } from '@/components/time-range-pickers';
import type { AuditFilterChange, AuditFilters as Filters } from '../_hooks/use-audit-filters';
import { ActorChoicesDocument, AuditTenantChoicesDocument } from './documents';
import { RemoteSelect, type Choice } from './remote-select';
import { ACTION_SUGGESTIONS, ENTITY_TYPES } from './vocabulary';

/** Quick starts and ends of a range. */
const TIME_PRESETS: TimePreset[] = [
  { amount: 1, unit: 'hour', label: '1 hour ago' },
  { amount: 1, unit: 'day', label: '24 hours ago' },
  { amount: 7, unit: 'day', label: '7 days ago' },
  { amount: 30, unit: 'day', label: '30 days ago' },
];

function useActorChoices(search: string | null): Choice[] {
  const [{ data }] = useQuery({ query: ActorChoicesDocument, variables: { search } });
  return (data?.users.nodes ?? []).map((u) => ({
    value: u.id,
    label: u.name ? `${u.name} (${u.email})` : u.email,
  }));
}

function useTenantChoices(search: string | null): Choice[] {
  const [{ data }] = useQuery({ query: AuditTenantChoicesDocument, variables: { search } });
  return (data?.tenants.nodes ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.slug})` }));
}

/** Narrows the log: action (or prefix), actor, tenant, entity, and a time range. */
export function AuditFilters({
  filters,
  filtered,
  setFilter,
  clear,
  actorName,
  tenantName,
}: {
  filters: Filters;
  filtered: boolean;
  setFilter: (change: AuditFilterChange) => void;
  clear: () => void;
  /** Labels for ids that came with the URL. */
  actorName: (id: string) => string;
  tenantName: (id: string) => string;
}) {
  const [action, setAction] = useState(filters.action);
  const [entityId, setEntityId] = useState(filters.entityId);
  const updateAction = useDebouncedCallback((value: string) => setFilter({ action: value }), 400);
  const updateEntityId = useDebouncedCallback(
    (value: string) => setFilter({ entityId: value.trim() }),
    400,
  );
  const entityTypes: string[] = [...ENTITY_TYPES];
  if (filters.entityType && !entityTypes.includes(filters.entityType)) {
    entityTypes.push(filters.entityType);
  }
  const clearAll = () => {
    setAction('');
    setEntityId('');
    clear();
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" verticalSpacing="xs" mb="md">
      <Autocomplete
        label="Action"
        placeholder="e.g. tenant.suspend or tenant."
        data={ACTION_SUGGESTIONS}
        value={action}
        onChange={(value) => {
          setAction(value);
          updateAction(value);
        }}
        onOptionSubmit={(value) => setFilter({ action: value })}
        limit={60}
        clearable
      />
      <RemoteSelect
        label="Actor"
        placeholder="Any user or key"
        value={filters.actor}
        fallback={actorName}
        onChange={(actor) => setFilter({ actor })}
        useChoices={useActorChoices}
      />
      <RemoteSelect
        label="Tenant"
        placeholder="Any tenant"
        value={filters.tenant}
        fallback={tenantName}
        onChange={(tenant) => setFilter({ tenant })}
        useChoices={useTenantChoices}
      />
      <Select
        label="Entity type"
        placeholder="Any"
        data={entityTypes}
        value={filters.entityType}
        onChange={(entityType) => setFilter({ entityType })}
        searchable
        clearable
      />
      <TextInput
        label="Entity ID"
        placeholder="e.g. tnt_…"
        value={entityId}
        onChange={(event) => {
          setEntityId(event.currentTarget.value);
          updateEntityId(event.currentTarget.value);
        }}
      />
      <TimeRangePickers
        from={filters.from}
        to={filters.to}
        presets={TIME_PRESETS}
        onChange={setFilter}
      />
      {filtered && (
        <Button variant="subtle" onClick={clearAll} mt="auto" w="fit-content">
          Clear the filters
        </Button>
      )}
    </SimpleGrid>
  );
}
