'use client';

import { Alert, List, Text } from '@mantine/core';
import type { AfreshRule } from '@/components/policy-editor/policy-draft';

/** Which rules' counters a change of window starts afresh, asked before the change is sent. */
export function WindowChangeAlert({ changes }: { changes: readonly AfreshRule[] }) {
  return (
    <Alert color="yellow" title="Counters will start afresh">
      <Text size="sm" mb="xs">
        A rule whose window changes counts from zero for every identifier (but those an override
        gives a window of their own): what it counted so far no longer counts.
      </Text>
      <List size="sm">
        {changes.map((change) => (
          <List.Item key={`${change.rule}/${change.candidate}`}>
            {change.rule}
            {change.candidate && ' (candidate)'}: window {change.before} → {change.after}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
