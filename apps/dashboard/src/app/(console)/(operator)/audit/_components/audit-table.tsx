'use client';

import { Button, Table, Text, VisuallyHidden } from '@mantine/core';
import { formatTimestamp } from '@/lib/format';
import { actorLabel } from './actor';
import type { AuditLogEntry } from './entry-drawer';

/** The log's entries, newest first: when, who, what, on which entity and tenant. */
export function AuditTable({
  entries,
  tenantName,
  onOpen,
}: {
  entries: readonly AuditLogEntry[];
  tenantName: (id: string) => string;
  onOpen: (entry: AuditLogEntry) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Entity</Table.Th>
            <Table.Th>Tenant</Table.Th>
            <Table.Th>
              <VisuallyHidden>Details</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => {
            const actor = actorLabel(entry);
            const when = formatTimestamp(entry.at);
            return (
              <Table.Tr key={entry.id}>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {when}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {actor.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {actor.kind}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {entry.action}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.entityType}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {entry.entityId}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.tenantId ? tenantName(entry.tenantId) : '—'}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => onOpen(entry)}
                    aria-label={`Details of ${entry.action} at ${when}`}
                  >
                    Details
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
