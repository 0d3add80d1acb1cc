'use client';

import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useParams, useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '@/generated/gql';
import { tenantPath } from './navigation';

const SwitchableTenantsDocument = graphql(`
  query SwitchableTenants($search: String) {
    tenants(first: 20, search: $search) {
      nodes {
        id
        name
        slug
      }
    }
  }
`);

/**
 * Opens another tenant: a member's tenants, or (operators) any tenant found by its name or slug.
 * Hidden for a member of a single tenant.
 */
export function TenantSwitcher({ hideWhenSingle }: { hideWhenSingle: boolean }) {
  const router = useRouter();
  const { tenantId } = useParams<{ tenantId?: string }>();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [{ data }] = useQuery({
    query: SwitchableTenantsDocument,
    variables: { search: debounced.trim() || null },
  });
  const tenants = useMemo(() => data?.tenants.nodes ?? [], [data]);
  if (hideWhenSingle && tenants.length <= 1 && !debounced) return null;
  return (
    <Select
      aria-label="Tenant"
      placeholder="Open a tenant…"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage="No tenant matches"
      data={tenants.map((t) => ({ value: t.id, label: `${t.name} (${t.slug})` }))}
      value={tenants.some((t) => t.id === tenantId) ? (tenantId ?? null) : null}
      onChange={(id) => id && router.push(tenantPath(id, ''))}
      w={260}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
