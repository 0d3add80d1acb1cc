'use client';

import { Badge, Group, Table, Text } from '@mantine/core';
import type { ValueSource } from '@/generated/gql/graphql';
import { ALGORITHM_LABELS } from '@/lib/rules';
import {
  describeRule,
  ORIGIN_LABELS,
  orderedParams,
  paramLabel,
  paramValue,
  planRange,
  valueOrigin,
  type RuleView,
} from './policy-reading';

const ORIGIN_COLORS = { plan: 'gray', change: 'blue', own: 'teal' } as const;

/**
 * A policy's rules, one row a parameter: its value, where the value comes from and, for a plan's
 * template, the range the plan lets the tenant choose in. Each rule is read in plain language.
 */
export function RuleTable({
  policySource,
  rules,
}: {
  policySource: ValueSource;
  rules: readonly RuleView[];
}) {
  const template = policySource === 'PLAN';
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing={6} withRowBorders>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="34%">Rule</Table.Th>
            <Table.Th>Parameter</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>From</Table.Th>
            {template && <Table.Th>Plan allows</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rules.map((rule) =>
            orderedParams(rule.algorithm, rule.params).map((param, index) => {
              const origin = valueOrigin(policySource, param.source);
              const range = param.changeable ? planRange(rule.algorithm, param) : null;
              return (
                <Table.Tr key={`${rule.name}/${rule.candidate}/${param.name}`}>
                  {index === 0 && (
                    <Table.Td rowSpan={rule.params.length} style={{ verticalAlign: 'top' }}>
                      <Group gap={6}>
                        <Text fw={600} size="sm">
                          {rule.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {ALGORITHM_LABELS[rule.algorithm]}
                        </Text>
                        {rule.candidate && (
                          <Badge size="xs" color="violet" variant="light">
                            candidate
                          </Badge>
                        )}
                      </Group>
                      <Text size="sm">{describeRule(rule)}</Text>
                      {rule.candidate && (
                        <Text size="xs" c="dimmed">
                          Decided in shadow beside the live rules: it never denies.
                          {rule.replaces && ` It proposes new values for ${rule.replaces}.`}
                        </Text>
                      )}
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Text size="sm">{paramLabel(rule.algorithm, param.name)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {paramValue(rule.algorithm, param)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={ORIGIN_COLORS[origin]}>
                      {ORIGIN_LABELS[origin]}
                    </Badge>
                  </Table.Td>
                  {template && (
                    <Table.Td>
                      <Text size="sm" c={range ? undefined : 'dimmed'}>
                        {range ?? (param.changeable ? 'any value' : 'fixed by the plan')}
                      </Text>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            }),
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
