'use client';

import { Anchor, Group, List, Text } from '@mantine/core';
import NextLink from 'next/link';
import { tenantPath } from '@/components/navigation';
import type { EffectivePoliciesQuery } from '@/generated/gql/graphql';
import { formatDateTime } from '@/lib/format';

type OverrideView = EffectivePoliciesQuery['effectivePolicies'][number]['overrides'][number];

/** The overrides of one policy (who gets other values, until when), and where to manage them. */
export function PolicyOverrides({
  tenantId,
  policy,
  overrides,
}: {
  tenantId: string;
  policy: string;
  overrides: readonly OverrideView[];
}) {
  const href = `${tenantPath(tenantId, '/overrides')}?policy=${encodeURIComponent(policy)}&expired=true`;
  return (
    <div>
      <Group justify="space-between" mb={4}>
        <Text fw={600} size="sm" component="h3" m={0}>
          Overrides {overrides.length > 0 && `(${overrides.length})`}
        </Text>
        <Anchor component={NextLink} href={href} size="sm">
          {overrides.length > 0
            ? `Manage the overrides of ${policy}`
            : `Overrides page for ${policy}`}
        </Anchor>
      </Group>
      {overrides.length === 0 ? (
        <Text size="sm" c="dimmed">
          None: every identifier gets the values above.
        </Text>
      ) : (
        <List size="sm" spacing={2} listStyleType="none">
          {overrides.map((override) => (
            <List.Item key={override.id}>
              <Group gap={8} wrap="wrap">
                <Text span ff="monospace" size="sm" fw={600}>
                  {override.identifier}
                </Text>
                <Text span size="xs" c="dimmed">
                  {override.match === 'PREFIX' ? 'prefix' : 'exact identifier'}
                </Text>
                <Text span size="xs" c="dimmed">
                  {override.expiresAt
                    ? `${override.expired ? 'expired' : 'expires'} ${formatDateTime(override.expiresAt)}`
                    : 'no expiry'}
                </Text>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </div>
  );
}
