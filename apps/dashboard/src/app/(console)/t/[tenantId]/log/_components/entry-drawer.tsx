'use client';

import { Badge, Button, Code, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import Link from 'next/link';
import { formatNumber, formatTimestamp, formatWait } from '@/lib/format';
import { OutcomeBadge, type LogEntry } from './log-table';
import { reasonExplained } from '@/lib/reasons';

/**
 * One decision, explained: why (its reason and the rule that denied), each live rule's figures as
 * the caller was told, the headers it received, and what to do about it (an override for this
 * identifier, for those who may write).
 */
export function EntryDrawer({
  entry,
  policy,
  overrideHref,
  onClose,
}: {
  entry: LogEntry | undefined;
  policy: string;
  /** Where an override for the entry's identifier is created; absent for readers. */
  overrideHref: ((identifier: string) => string) | undefined;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={entry !== undefined}
      onClose={onClose}
      position="right"
      size="lg"
      title={entry ? `Decision for ${entry.identifier}` : ''}
    >
      {entry && (
        <Stack gap="md">
          <Group gap="xs">
            <OutcomeBadge entry={entry} />
            <Text size="sm">
              {formatTimestamp(entry.at)} · {policy} · cost {formatNumber(entry.cost)}
            </Text>
          </Group>
          <Text size="sm">
            {reasonExplained(entry.reason)}
            {entry.deniedBy && ` The rule that denied: ${entry.deniedBy}.`}
            {entry.candidatesDeniedBy.length > 0 &&
              ` Candidate rules that would have denied: ${entry.candidatesDeniedBy.join(', ')}.`}
            {entry.overrideId && ` An override applied (${entry.overrideId}).`}
          </Text>
          {overrideHref && (
            <Button component={Link} href={overrideHref(entry.identifier)} w="fit-content">
              Create an override for {entry.identifier}
            </Button>
          )}
          <section aria-labelledby="entry-rules">
            <Title order={3} size="h5" id="entry-rules" mb="xs">
              Rules after the check
            </Title>
            {entry.rules.length === 0 ? (
              <Text size="sm" c="dimmed">
                Decided without Redis: no rule was read.
              </Text>
            ) : (
              <Table verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Rule</Table.Th>
                    <Table.Th>Passed</Table.Th>
                    <Table.Th ta="right">Remaining</Table.Th>
                    <Table.Th>Resets</Table.Th>
                    <Table.Th ta="right">Retry after</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {entry.rules.map((rule) => (
                    <Table.Tr key={rule.name}>
                      <Table.Td>
                        {rule.name}
                        <Text size="xs" c="dimmed">
                          {rule.algorithm.replaceAll('_', ' ')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {rule.allowed === false ? (
                          <Badge color="red" variant="light">
                            no
                          </Badge>
                        ) : (
                          <Badge color="teal" variant="light">
                            yes
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        {formatNumber(rule.remaining)} of {formatNumber(rule.limit)}
                      </Table.Td>
                      <Table.Td>{formatTimestamp(rule.resetAt)}</Table.Td>
                      <Table.Td ta="right">
                        {rule.retryAfterMs ? formatWait(rule.retryAfterMs) : '—'}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </section>
          <section aria-labelledby="entry-headers">
            <Title order={3} size="h5" id="entry-headers" mb="xs">
              Headers the caller received
            </Title>
            {entry.headers.length === 0 ? (
              <Text size="sm" c="dimmed">
                Not kept for this entry.
              </Text>
            ) : (
              <Code block>
                {entry.headers.map((header) => `${header.name}: ${header.value}`).join('\n')}
              </Code>
            )}
          </section>
        </Stack>
      )}
    </Drawer>
  );
}
