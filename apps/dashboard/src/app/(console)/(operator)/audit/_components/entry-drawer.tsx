'use client';

import { Accordion, Button, Code, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { AuditLogQuery } from '@/generated/gql/graphql';
import { formatTimestamp } from '@/lib/format';
import type { AuditFilterChange } from '../_hooks/use-audit-filters';
import { actorLabel } from './actor';
import { ChangeList } from './change-list';
import { diffJson, parseJson } from './json-diff';

export type AuditLogEntry = AuditLogQuery['auditLog']['nodes'][number];

/**
 * One entry in full: who, when, from where, and its before/after as a diff (the raw JSON below
 * it); and the way to the rest of its actor's or its entity's history.
 */
export function EntryDrawer({
  entry,
  tenantName,
  onClose,
  onFilter,
}: {
  entry: AuditLogEntry | undefined;
  tenantName: (id: string) => string;
  onClose: () => void;
  onFilter: (change: AuditFilterChange) => void;
}) {
  return (
    <Drawer
      opened={entry !== undefined}
      onClose={onClose}
      position="right"
      size="xl"
      title={entry && <Text fw={700}>{entry.action}</Text>}
    >
      {entry && <EntryDetails entry={entry} tenantName={tenantName} onFilter={onFilter} />}
    </Drawer>
  );
}

function EntryDetails({
  entry,
  tenantName,
  onFilter,
}: {
  entry: AuditLogEntry;
  tenantName: (id: string) => string;
  onFilter: (change: AuditFilterChange) => void;
}) {
  const actor = actorLabel(entry);
  const before = parseJson(entry.before);
  const after = parseJson(entry.after);
  const changes = diffJson(before, after);
  const facts: [string, string][] = [
    ['When', formatTimestamp(entry.at)],
    ['Who', `${actor.name} (${actor.kind})`],
    ['Entity', `${entry.entityType} ${entry.entityId}`],
    ['Tenant', entry.tenantId ? tenantName(entry.tenantId) : 'None (the platform)'],
    ['Request', entry.requestId ?? '—'],
    ['IP address', entry.ip ?? '—'],
  ];

  return (
    <Stack>
      <Table variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          {facts.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={120}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group gap="xs">
        <Button
          size="xs"
          variant="light"
          onClick={() => onFilter({ entityType: entry.entityType, entityId: entry.entityId })}
        >
          History of this {entry.entityType}
        </Button>
        {entry.actorId && (
          <Button size="xs" variant="light" onClick={() => onFilter({ actor: entry.actorId })}>
            Entries by {actor.name}
          </Button>
        )}
      </Group>
      <Title order={2} size="h4">
        Changes
      </Title>
      {changes.length > 0 ? (
        <ChangeList changes={changes} />
      ) : (
        <Text size="sm" c="dimmed">
          {before === undefined && after === undefined
            ? 'This entry records an event, with no values before or after.'
            : 'The values before and after are the same.'}
        </Text>
      )}
      {(before !== undefined || after !== undefined) && (
        <Accordion variant="contained">
          {(['before', 'after'] as const).map((side) => (
            <Accordion.Item key={side} value={side}>
              <Accordion.Control>
                {side === 'before' ? 'Before, as recorded' : 'After, as recorded'}
              </Accordion.Control>
              <Accordion.Panel>
                <Code block>
                  {JSON.stringify(side === 'before' ? before : after, null, 2) ?? 'null'}
                </Code>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
