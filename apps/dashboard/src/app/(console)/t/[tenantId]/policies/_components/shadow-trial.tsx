'use client';

import { Alert, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import type { ShadowTrialTotalsQuery } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import type { EffectivePolicyView } from './policy-card';
import { describeRule } from './policy-reading';

export type TrialTotals = ShadowTrialTotalsQuery['usageTotals'][number];

const countOf = (rows: readonly { rule: string; count: number }[] | undefined, rule: string) =>
  rows?.find((row) => row.rule === rule)?.count ?? 0;

/**
 * A policy's candidate rules running in shadow: per candidate, what it proposes, what it would
 * have denied over the last 15 minutes, and what the live rule it would replace denied.
 */
export function ShadowTrial({
  policy,
  totals,
  error,
  actions,
}: {
  policy: EffectivePolicyView;
  totals: TrialTotals | undefined;
  error: CombinedError | undefined;
  actions?: ReactNode;
}) {
  const titleId = useId();
  const candidates = policy.rules.filter((rule) => rule.candidate);
  if (candidates.length === 0) return null;
  const figure = (count: number) => (totals ? formatNumber(count) : '…');
  return (
    <Stack gap="xs" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ flex: 1 }}>
          <Title order={3} size="h5" id={titleId}>
            Trying in shadow
          </Title>
          <Text size="sm" c="dimmed">
            Candidate rules decide beside the live ones on their own counters and never deny. Last
            15 minutes, updated every few seconds.
          </Text>
        </div>
        {actions && (
          <Group gap="xs" wrap="nowrap">
            {actions}
          </Group>
        )}
      </Group>
      {error && (
        <Alert color="red" title="The figures could not be read">
          {apiError(error).message}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing={6} aria-label={`Candidates of ${policy.name}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Candidate</Table.Th>
              <Table.Th>Proposes</Table.Th>
              <Table.Th ta="right">Would have denied</Table.Th>
              <Table.Th ta="right">The live rule denied</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {candidates.map((candidate) => (
              <Table.Tr key={candidate.name}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {candidate.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {describeRule(candidate)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {candidate.replaces ? `new values for ${candidate.replaces}` : 'a new rule'}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={600}>
                    {figure(countOf(totals?.candidateDeniedByRule, candidate.name))}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" c={candidate.replaces ? undefined : 'dimmed'}>
                    {candidate.replaces
                      ? figure(countOf(totals?.deniedByRule, candidate.replaces))
                      : 'none to compare'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {totals && (
        <Text size="xs" c="dimmed">
          The live rules denied {formatNumber(totals.denied)} checks of {policy.name} in these 15
          minutes.
        </Text>
      )}
    </Stack>
  );
}
