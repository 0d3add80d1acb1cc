'use client';

import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

export interface Choice {
  value: string;
  label: string;
}

/**
 * A filter chosen among what the API finds for the typed text (users, tenants): `useChoices`
 * queries with the debounced search. The chosen value stays listed when a new search no longer
 * finds it (its label as chosen, else `fallback`, e.g. read from the URL's id), so the field never
 * shows empty while the list is filtered by it.
 */
export function RemoteSelect({
  label,
  placeholder,
  value,
  fallback,
  onChange,
  useChoices,
}: {
  label: string;
  placeholder: string;
  value: string | null;
  fallback: (value: string) => string;
  onChange: (value: string | null) => void;
  useChoices: (search: string | null) => Choice[];
}) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Choice>();
  const current =
    value === null
      ? undefined
      : chosen?.value === value
        ? chosen
        : { value, label: fallback(value) };
  // the field shows the chosen label as its text: that is no search
  const [debounced] = useDebouncedValue(search === current?.label ? '' : search, 250);
  const found = useChoices(debounced.trim() || null);
  const data =
    current && !found.some((c) => c.value === current.value) ? [current, ...found] : found;
  return (
    <Select
      label={label}
      placeholder={placeholder}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      // the API has searched already
      filter={({ options }) => options}
      nothingFoundMessage="Nothing found"
      data={data}
      value={value}
      onChange={(next, option) => {
        setChosen(next === null ? undefined : { value: next, label: option.label });
        onChange(next);
      }}
    />
  );
}
