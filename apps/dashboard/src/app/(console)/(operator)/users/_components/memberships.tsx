import { Anchor, Badge, Stack, Text } from '@mantine/core';
import NextLink from 'next/link';
import { tenantPath } from '@/components/navigation';
import { roleLabel } from '@/lib/roles';

interface Membership {
  role: string;
  tenantId?: string | null;
  tenantName?: string | null;
}

/** A user's roles, one a line: operator of the platform, and each tenant (linked) with its role. */
export function Memberships({ memberships }: { memberships: readonly Membership[] }) {
  if (memberships.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No access
      </Text>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      {memberships.map((m) =>
        m.tenantId ? (
          <Text key={m.tenantId} size="sm">
            <Anchor component={NextLink} href={tenantPath(m.tenantId, '')} size="sm">
              {m.tenantName ?? m.tenantId}
            </Anchor>{' '}
            <Text span size="sm" c="dimmed">
              {roleLabel(m.role)}
            </Text>
          </Text>
        ) : (
          <Badge key="platform" variant="light" color="indigo">
            {roleLabel(m.role)}
          </Badge>
        ),
      )}
    </Stack>
  );
}
