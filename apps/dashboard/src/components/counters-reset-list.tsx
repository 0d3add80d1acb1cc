'use client';

import { Alert, List, Text } from '@mantine/core';

/** A rule whose counters a change leaves behind (the API's `CounterReset`). */
export interface CounterResetView {
  policy: string;
  rule: string;
  candidate: boolean;
  /** Null: every identifier; else the override's identifier (`prefix*` for a prefix). */
  override?: string | null;
  before: string;
  after: string;
}

/**
 * The counters a change starts afresh (its rules' algorithm or window changed), before it is
 * applied (`preview`) or after: who is concerned and the state before and after.
 */
export function CountersResetList({
  resets,
  preview = false,
  onClose,
}: {
  resets: readonly CounterResetView[];
  preview?: boolean;
  onClose?: () => void;
}) {
  if (resets.length === 0) return null;
  return (
    <Alert
      color="yellow"
      title={preview ? 'These counters would start afresh' : 'These counters started afresh'}
      withCloseButton={Boolean(onClose)}
      closeButtonLabel="Dismiss"
      onClose={onClose}
    >
      <Text size="sm" mb="xs">
        {preview
          ? 'Their window or algorithm changes, so they would decide on new counters: what was counted so far would no longer count.'
          : 'Their window or algorithm changed, so they decide on new counters: what was counted before no longer counts.'}
      </Text>
      <List size="sm" spacing={4}>
        {resets.map((reset) => (
          <List.Item key={`${reset.policy}/${reset.rule}/${reset.candidate}/${reset.override}`}>
            <Text span fw={600} size="sm">
              {reset.policy} › {reset.rule}
            </Text>
            {reset.candidate && ' (candidate)'}
            {reset.override ? ` for ${reset.override}` : ' for every identifier'}:{' '}
            <Text span ff="monospace" size="sm">
              {reset.before}
            </Text>{' '}
            →{' '}
            <Text span ff="monospace" size="sm">
              {reset.after}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
