'use client';

import {
  Button,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { TimeRangePickers, type TimePreset } from '@/components/time-range-pickers';
import {
  MATCHES,
  OUTCOMES,
  type LogFilterChange,
  type LogFilters as Filters,
} from '../_hooks/use-log-filters';
import { REASONS } from '@/lib/reasons';

/** The log keeps 15 minutes after its last entry: its presets are minutes. */
const TIME_PRESETS: TimePreset[] = [
  { amount: 1, unit: 'minute', label: '1 minute ago' },
  { amount: 5, unit: 'minute', label: '5 minutes ago' },
  { amount: 15, unit: 'minute', label: '15 minutes ago' },
];

/** Narrows the log: identifier (exact or prefix), outcome, rule, reason, and a time range. */
export function LogFilters({
  filters,
  filtered,
  rules,
  setFilter,
  clear,
}: {
  filters: Filters;
  filtered: boolean;
  /** The chosen policy's rules, candidates included. */
  rules: readonly string[];
  setFilter: (change: LogFilterChange) => void;
  clear: () => void;
}) {
  const [identifier, setIdentifier] = useState(filters.identifier);
  const updateIdentifier = useDebouncedCallback(
    (value: string) => setFilter({ identifier: value.trim() }),
    300,
  );
  const ruleChoices = [...rules];
  if (filters.rule && !ruleChoices.includes(filters.rule)) ruleChoices.push(filters.rule);
  const clearAll = () => {
    setIdentifier('');
    clear();
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" verticalSpacing="xs">
      <TextInput
        label="Identifier"
        placeholder={filters.match === 'prefix' ? 'Starts with, e.g. org-42:' : 'e.g. user-1'}
        value={identifier}
        onChange={(event) => {
          setIdentifier(event.currentTarget.value);
          updateIdentifier(event.currentTarget.value);
        }}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="log-match">
          Identifier match
        </Text>
        <SegmentedControl
          aria-labelledby="log-match"
          value={filters.match}
          onChange={(value) => setFilter({ match: value as (typeof MATCHES)[number] })}
          data={[
            { value: 'exact', label: 'Exact' },
            { value: 'prefix', label: 'Prefix' },
          ]}
        />
      </Stack>
      <Select
        label="Outcome"
        placeholder="Any"
        clearable
        data={OUTCOMES.map((o) => ({ value: o, label: o === 'ALLOWED' ? 'Allowed' : 'Denied' }))}
        value={filters.outcome}
        onChange={(value) => setFilter({ outcome: value as (typeof OUTCOMES)[number] | null })}
      />
      <Select
        label="Rule"
        placeholder="Any"
        clearable
        data={ruleChoices}
        value={filters.rule}
        onChange={(rule) => setFilter({ rule })}
      />
      <Select
        label="Reason"
        placeholder="Any"
        clearable
        data={REASONS.map((r) => ({ value: r.code, label: r.label }))}
        value={filters.reason}
        onChange={(reason) => setFilter({ reason })}
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
