'use client';

import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import type { EffectivePoliciesQuery } from '@/generated/gql/graphql';
import { formatDuration } from '@/lib/rules';
import { PolicyOverrides } from './policy-overrides';
import { FAIL_MODE_LABELS, MODE_LABELS } from './policy-reading';
import { RuleTable } from './rule-table';

export type EffectivePolicyView = EffectivePoliciesQuery['effectivePolicies'][number];

function Setting({ label, value, meaning }: { label: string; value: string; meaning?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {value}
      </Text>
      {meaning && (
        <Text size="xs" c="dimmed">
          {meaning}
        </Text>
      )}
    </div>
  );
}

/**
 * One policy as the tenant's checks use it: where it comes from, its settings, its rules with
 * every value and its origin, a trial of candidate rules (`trial`) and its overrides. `actions`:
 * what the reader may do with it.
 */
export function PolicyCard({
  tenantId,
  policy,
  actions,
  trial,
}: {
  tenantId: string;
  policy: EffectivePolicyView;
  actions?: ReactNode;
  trial?: ReactNode;
}) {
  const titleId = useId();
  const template = policy.source === 'PLAN';
  return (
    <Card withBorder component="section" aria-labelledby={titleId} padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4}>
            <Group gap="xs">
              <Title order={2} size="h4" id={titleId} ff="monospace">
                {policy.name}
              </Title>
              <Badge variant="light" color={template ? 'gray' : 'teal'}>
                {template ? 'From the plan' : 'Tenant’s own'}
              </Badge>
              {policy.changed && (
                <Badge variant="light" color="blue">
                  Changed by the tenant
                </Badge>
              )}
            </Group>
            {policy.description && (
              <Text size="sm" c="dimmed" maw={720}>
                {policy.description}
              </Text>
            )}
          </Stack>
          {actions && <Group gap="xs">{actions}</Group>}
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <Setting
            label="Mode"
            value={MODE_LABELS[policy.mode].label}
            meaning={MODE_LABELS[policy.mode].meaning}
          />
          <Setting
            label="Fail mode"
            value={FAIL_MODE_LABELS[policy.failMode].label}
            meaning={FAIL_MODE_LABELS[policy.failMode].meaning}
          />
          <Setting
            label="Redis timeout"
            value={formatDuration(policy.redisTimeoutMs)}
            meaning="how long a check waits for Redis"
          />
          {typeof policy.reservationTtlMs === 'number' ? (
            <Setting
              label="Reservation TTL"
              value={formatDuration(policy.reservationTtlMs)}
              meaning="an unsettled reservation expires after it"
            />
          ) : (
            <Setting
              label="Reservation TTL"
              value="none"
              meaning="checks reserve nothing to settle"
            />
          )}
        </SimpleGrid>
        <RuleTable policySource={policy.source} rules={policy.rules} />
        {trial}
        <PolicyOverrides tenantId={tenantId} policy={policy.name} overrides={policy.overrides} />
      </Stack>
    </Card>
  );
}
