'use client';

import { Button, Group, Text } from '@mantine/core';
import { formatNumber } from '@/lib/format';

/** What the pager reads of a GraphQL connection. */
export interface PagedConnection {
  nodes: readonly unknown[];
  /** Absent for a list that is not counted (a log): the pager says how many are shown. */
  totalCount?: number;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/**
 * Forward pagination over a connection, its cursor kept in the URL (`after`) so a page can be
 * shared and reloaded: the count, the next page, back to the first. Nothing until the connection
 * is loaded, nor for an empty one (its list says so).
 */
export function Pager({
  connection,
  after,
  onAfterChange,
  noun,
}: {
  connection: PagedConnection | undefined;
  after: string | null;
  onAfterChange: (after: string | null) => void;
  noun: string;
}) {
  const total = connection?.totalCount ?? connection?.nodes.length;
  if (!connection || total === 0) return null;
  const { endCursor, hasNextPage } = connection.pageInfo;
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {connection.totalCount === undefined
          ? `${formatNumber(connection.nodes.length)} ${noun} shown`
          : `${formatNumber(connection.nodes.length)} shown of ${formatNumber(connection.totalCount)} ${noun}`}
      </Text>
      <Group gap="xs">
        {after && (
          <Button variant="default" size="xs" onClick={() => onAfterChange(null)}>
            First page
          </Button>
        )}
        <Button
          variant="default"
          size="xs"
          disabled={!hasNextPage || !endCursor}
          onClick={() => endCursor && onAfterChange(endCursor)}
        >
          Next page
        </Button>
      </Group>
    </Group>
  );
}
