'use client';

import { Badge, Code, Table, Text } from '@mantine/core';
import { formatNumber, formatTimestamp, formatWait } from '@/lib/format';

/**
 * A decision's outcome as a badge: shadow denials stand out from plain allows. Light badges: the
 * theme darkens their text to AA contrast in both schemes (filled teal or orange would not reach it).
 */
export function OutcomeBadge({ allowed, shadow }: { allowed: boolean; shadow: boolean }) {
  if (!allowed)
    return (
      <Badge color="red" variant="light">
        denied
      </Badge>
    );
  if (shadow)
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

/** One rule's figures after a check, as the API gives them (log entries, playground decisions). */
export interface RuleFigures {
  name: string;
  algorithm: string;
  allowed: boolean | null;
  limit: number;
  remaining: number;
  resetAt: string;
  retryAfterMs: number | null;
}

/** Each rule after a check: passed or not, what is left, when it resets, the wait. */
export function RuleFiguresTable({
  rules,
  passedHeader = 'Passed',
}: {
  rules: readonly RuleFigures[];
  /** What the "passed" column says of each rule (a check made, or one asked about). */
  passedHeader?: string;
}) {
  return (
    <Table verticalSpacing={4} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Rule</Table.Th>
          <Table.Th>{passedHeader}</Table.Th>
          <Table.Th ta="right">Remaining</Table.Th>
          <Table.Th>Resets</Table.Th>
          <Table.Th ta="right">Retry after</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rules.map((rule) => (
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
  );
}

/** Response headers as they go over the wire, one per line. */
export function ResponseHeaders({
  headers,
}: {
  headers: readonly { name: string; value: string }[];
}) {
  return <Code block>{headers.map((header) => `${header.name}: ${header.value}`).join('\n')}</Code>;
}
