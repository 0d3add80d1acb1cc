'use client';

import { Badge, Table, Text, UnstyledButton } from '@mantine/core';
import type { DecisionLogQuery } from '@/generated/gql/graphql';
import { formatNumber, formatTimestamp, formatWait } from '@/lib/format';
import { reasonLabel } from '@/lib/reasons';

export type LogEntry = DecisionLogQuery['decisionLog']['entries'][number];

/**
 * An entry's outcome as a badge: shadow denials stand out from plain allows. Light badges: the
 * theme darkens their text to AA contrast in both schemes (filled teal or orange would not reach it).
 */
export function OutcomeBadge({ entry }: { entry: LogEntry }) {
  if (entry.outcome === 'DENIED')
    return (
      <Badge color="red" variant="light">
        denied
      </Badge>
    );
  if (entry.shadowDenied)
    return (
      <Badge color="orange" variant="light">
        allowed (shadow)
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      allowed
    </Badge>
  );
}

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
                <OutcomeBadge entry={entry} />
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
