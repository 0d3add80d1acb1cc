'use client';

import { Autocomplete, Button, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DateTimePicker, type DateTimePickerProps } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useQuery } from 'urql';
import { formatDateTime } from '@/lib/format';
import type { AuditFilterChange, AuditFilters as Filters } from '../_hooks/use-audit-filters';
import { ActorChoicesDocument, AuditTenantChoicesDocument } from './documents';
import { RemoteSelect, type Choice } from './remote-select';
import { ACTION_SUGGESTIONS, ENTITY_TYPES } from './vocabulary';

/** The picker's own value format: local wall time. */
const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const toPicker = (date: Date | null) => (date ? dayjs(date).format(PICKER_FORMAT) : null);
const fromPicker = (value: string | null) => (value ? dayjs(value).toDate() : null);

/**
 * What both time pickers share: names for their icon buttons and time fields (screen readers),
 * days of other months and weekends drawn as other days (Mantine's dimmed and red ones do not
 * contrast enough, and a log has no weekends), the reader's date and time format.
 */
const pickerProps: Partial<DateTimePickerProps> = {
  ariaLabels: {
    previousMonth: 'Previous month',
    nextMonth: 'Next month',
    previousYear: 'Previous year',
    nextYear: 'Next year',
    previousDecade: 'Previous decade',
    nextDecade: 'Next decade',
  },
  timePickerProps: { hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' },
  submitButtonProps: { 'aria-label': 'Apply' },
  hideOutsideDates: true,
  weekendDays: [],
  valueFormat: (value: string) => formatDateTime(dayjs(value).toDate()),
  clearable: true,
};

/** Quick starts and ends of a range, relative to now. */
function timePresets() {
  const ago = (amount: number, unit: 'hour' | 'day') =>
    dayjs().subtract(amount, unit).format(PICKER_FORMAT);
  return [
    { value: ago(1, 'hour'), label: '1 hour ago' },
    { value: ago(1, 'day'), label: '24 hours ago' },
    { value: ago(7, 'day'), label: '7 days ago' },
    { value: ago(30, 'day'), label: '30 days ago' },
  ];
}

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
  const presets = timePresets();
  // no entry comes from the future
  const now = new Date();
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
      <DateTimePicker
        label="From"
        placeholder="Any time"
        value={toPicker(filters.from)}
        onChange={(value) => setFilter({ from: fromPicker(value) })}
        presets={presets}
        maxDate={filters.to ?? now}
        {...pickerProps}
      />
      <DateTimePicker
        label="To"
        placeholder="Now"
        value={toPicker(filters.to)}
        onChange={(value) => setFilter({ to: fromPicker(value) })}
        presets={presets}
        minDate={filters.from ?? undefined}
        maxDate={now}
        {...pickerProps}
      />
      {filtered && (
        <Button variant="subtle" onClick={clearAll} mt="auto" w="fit-content">
          Clear the filters
        </Button>
      )}
    </SimpleGrid>
  );
}
