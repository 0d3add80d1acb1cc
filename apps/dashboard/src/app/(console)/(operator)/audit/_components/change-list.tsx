import { Badge, Code, Table, Text } from '@mantine/core';
import type { ChangeKind, JsonChange, JsonValue } from './json-diff';

const KIND: Record<ChangeKind, { label: string; color: string }> = {
  added: { label: 'added', color: 'green' },
  removed: { label: 'removed', color: 'red' },
  changed: { label: 'changed', color: 'blue' },
};

/** A value as JSON: strings quoted (so "" and null read apart), objects indented. */
function Value({ value }: { value: JsonValue | undefined }) {
  if (value === undefined) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  if (typeof value === 'object' && value !== null) {
    return <Code block>{JSON.stringify(value, null, 2)}</Code>;
  }
  return <Code>{JSON.stringify(value)}</Code>;
}

/** An entry's before/after diff: one row per field added, removed or changed. */
export function ChangeList({ changes }: { changes: readonly JsonChange[] }) {
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table verticalSpacing="xs" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="30%">Field</Table.Th>
            <Table.Th>Before</Table.Th>
            <Table.Th>After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((change) => (
            <Table.Tr key={`${change.kind}:${change.path}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm" ff="monospace">
                  {change.path || '(the whole value)'}
                </Text>
                <Badge size="xs" variant="light" color={KIND[change.kind].color}>
                  {KIND[change.kind].label}
                </Badge>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Value value={change.before} />
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Value value={change.after} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
