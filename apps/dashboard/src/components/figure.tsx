import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A label and its value, in a card's grid. */
export function Figure({
  label,
  span = 1,
  children,
}: {
  label: string;
  span?: number;
  children: ReactNode;
}) {
  return (
    <div style={{ gridColumn: `span ${span}` }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600} mt={2} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}
