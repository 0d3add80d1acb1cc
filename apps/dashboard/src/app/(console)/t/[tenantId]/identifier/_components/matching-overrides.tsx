'use client';

import { Anchor, Badge, Card, Table, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import type { IdentifierStateFieldsFragment } from '@/generated/gql/graphql';
import { formatDateTime } from '@/lib/format';
import { describeRuleChanges } from '@/lib/rule-changes';

type MatchingOverride = IdentifierStateFieldsFragment['overrides'][number];

function status(override: MatchingOverride, appliedId: string | null) {
  if (override.id === appliedId)
    return (
      <Badge color="teal" variant="light">
        applies now
      </Badge>
    );
  if (override.expired)
    return (
      <Badge color="gray" variant="light">
        expired
      </Badge>
    );
  return (
    <Badge color="gray" variant="outline">
      a closer match applies
    </Badge>
  );
}

/**
 * The policy's overrides that match the identifier, in the order a check tries them (exact, then
 * the longest prefix): the first live one applies.
 */
export function MatchingOverrides({
  identifier,
  overrides,
  appliedId,
  overridesHref,
}: {
  identifier: string;
  overrides: readonly MatchingOverride[];
  appliedId: string | null;
  overridesHref: string;
}) {
  return (
    <Card withBorder component="section" aria-labelledby="identifier-overrides" padding="lg">
      <Title order={2} size="h4" id="identifier-overrides">
        Overrides that match
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        In the order a check tries them: the exact identifier first, then the longest prefix. Edit
        them on the{' '}
        <Anchor component={NextLink} href={overridesHref} size="sm" underline="always">
          Overrides page
        </Anchor>
        .
      </Text>
      {overrides.length === 0 ? (
        <Text size="sm" c="dimmed">
          No override matches{' '}
          <Text span ff="monospace" size="sm">
            {identifier}
          </Text>
          : the policy&apos;s own values apply.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" fz="sm" aria-label="Overrides that match">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Identifier</Table.Th>
                <Table.Th>Changes</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Reason</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {overrides.map((override) => (
                <Table.Tr key={override.id}>
                  <Table.Td ff="monospace">{override.identifier}</Table.Td>
                  <Table.Td>
                    {describeRuleChanges(override.rules).map((line) => (
                      <Text key={line} size="sm">
                        {line}
                      </Text>
                    ))}
                  </Table.Td>
                  <Table.Td>
                    {override.expiresAt ? formatDateTime(override.expiresAt) : 'never'}
                  </Table.Td>
                  <Table.Td maw={220}>{override.reason || '—'}</Table.Td>
                  <Table.Td>{status(override, appliedId)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
