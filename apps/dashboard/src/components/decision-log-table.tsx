'use client';

import { Table, Text, UnstyledButton } from '@mantine/core';
import { OutcomeBadge } from '@/components/decision-figures';
import type { DecisionLogEntryFieldsFragment } from '@/generated/gql/graphql';
import { formatNumber, formatTimestamp, formatWait } from '@/lib/format';
import { reasonLabel } from '@/lib/reasons';

export type LogEntry = DecisionLogEntryFieldsFragment;

/** The log's entries, newest first; a row opens its entry. */
export function LogTable({
  entries,
  onOpen,
}: {
  entries: readonly LogEntry[];
  onOpen: (entry: LogEntry) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Identifier</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Rule</Table.Th>
            <Table.Th ta="right">Cost</Table.Th>
            <Table.Th ta="right">Retry after</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <UnstyledButton
                  onClick={() => onOpen(entry)}
                  aria-label={`Open the decision of ${formatTimestamp(entry.at)} for ${entry.identifier}`}
                >
                  <Text size="sm" td="underline">
                    {formatTimestamp(entry.at)}
                  </Text>
                </UnstyledButton>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {entry.identifier}
                </Text>
              </Table.Td>
              <Table.Td>
                <OutcomeBadge allowed={entry.outcome === 'ALLOWED'} shadow={entry.shadowDenied} />
              </Table.Td>
              <Table.Td>{reasonLabel(entry.reason)}</Table.Td>
              <Table.Td>
                {entry.deniedBy ?? '—'}
                {entry.candidatesDeniedBy.length > 0 && (
                  <Text size="xs" c="dimmed">
                    candidates: {entry.candidatesDeniedBy.join(', ')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">{formatNumber(entry.cost)}</Table.Td>
              <Table.Td ta="right">
                {entry.retryAfterMs === null || entry.retryAfterMs === 0
                  ? '—'
                  : formatWait(entry.retryAfterMs)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
