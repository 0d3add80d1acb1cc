'use client';

import { Button, Group, Text } from '@mantine/core';
import { formatNumber } from '@/lib/format';

/**
 * Forward pagination over a connection, its cursor kept in the URL (`after`) so a page can be
 * shared and reloaded: the count, the next page, back to the first.
 */
export function Pager({
  shown,
  totalCount,
  hasNextPage,
  endCursor,
  after,
  onAfterChange,
  noun,
}: {
  shown: number;
  totalCount: number;
  hasNextPage: boolean;
  endCursor: string | null | undefined;
  after: string | null;
  onAfterChange: (after: string | null) => void;
  noun: string;
}) {
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {formatNumber(shown)} shown of {formatNumber(totalCount)} {noun}
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
