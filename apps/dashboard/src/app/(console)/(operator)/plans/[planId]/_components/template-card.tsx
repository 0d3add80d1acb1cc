'use client';

import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { ruleReading } from '@/components/policy-editor/rule-reading';
import type { PlanQuery } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { ALGORITHM_LABELS } from '@/lib/rules';
import { describeBound } from './bounds';

export type PlanTemplate = PlanQuery['plan']['policies'][number];

const FAIL_MODES = {
  OPEN: 'fails open',
  CLOSED: 'fails closed',
  LOCAL: 'fails to a local limiter',
};

/** One policy template: its settings, each rule in plain words with what tenants may change. */
export function TemplateCard({
  template,
  onEdit,
  onDelete,
  onTry,
  onSettle,
}: {
  template: PlanTemplate;
  onEdit: () => void;
  onDelete: () => void;
  /** Try new limits in shadow. */
  onTry: () => void;
  /** Apply or discard the candidates running in shadow. */
  onSettle: (action: 'apply' | 'discard') => void;
}) {
  const trying = template.rules.some((rule) => rule.candidate);
  return (
    <Card withBorder component="section" aria-labelledby={`template-${template.id}`}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <Stack gap={2}>
          <Group gap="xs">
            <Title order={2} size="h4" ff="monospace" id={`template-${template.id}`}>
              {template.name}
            </Title>
            {template.mode === 'SHADOW' && (
              <Badge color="gray" variant="light">
                shadow
              </Badge>
            )}
          </Group>
          {template.description && (
            <Text size="sm" c="dimmed">
              {template.description}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {FAIL_MODES[template.failMode]}, Redis timeout {formatNumber(template.redisTimeoutMs)}{' '}
            ms
            {typeof template.reservationTtlMs === 'number' && ', with reservations'}
          </Text>
        </Stack>
        <Group gap="xs">
          {trying && (
            <>
              <Button
                size="xs"
                variant="default"
                onClick={() => onSettle('discard')}
                aria-label={`Discard candidates of ${template.name}`}
              >
                Discard candidates
              </Button>
              <Button
                size="xs"
                onClick={() => onSettle('apply')}
                aria-label={`Apply candidates of ${template.name}`}
              >
                Apply candidates
              </Button>
            </>
          )}
          <Button
            size="xs"
            variant="light"
            onClick={onTry}
            aria-label={`Try in shadow for the template ${template.name}`}
          >
            Try in shadow
          </Button>
          <Button
            size="xs"
            variant="light"
            onClick={onEdit}
            aria-label={`Edit the template ${template.name}`}
          >
            Edit
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={onDelete}
            aria-label={`Delete the template ${template.name}`}
          >
            Delete
          </Button>
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label={`Rules of ${template.name}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Rule</Table.Th>
              <Table.Th>Algorithm</Table.Th>
              <Table.Th>Allows</Table.Th>
              <Table.Th>Tenants may change</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {template.rules.map((rule) => (
              <Table.Tr key={`${rule.name}/${rule.candidate}`}>
                <Table.Td>
                  <Text span ff="monospace" size="sm">
                    {rule.name}
                  </Text>
                  {rule.candidate && (
                    <Badge ml="xs" size="xs" variant="outline" color="gray">
                      {rule.replaces ? `candidate for ${rule.replaces}` : 'candidate'}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{ALGORITHM_LABELS[rule.algorithm]}</Table.Td>
                <Table.Td>{ruleReading(rule)}</Table.Td>
                <Table.Td>
                  {rule.tenantBounds.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      nothing
                    </Text>
                  ) : (
                    rule.tenantBounds.map((bound) => (
                      <Text key={bound.param} size="sm">
                        {describeBound(bound)}
                      </Text>
                    ))
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
