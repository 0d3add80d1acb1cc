'use client';

import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { RuleFiguresTable, type RuleFigures } from '@/components/decision-figures';
import type { IdentifierDecisionFieldsFragment } from '@/generated/gql/graphql';
import { formatNumber, formatTimestamp, formatWait } from '@/lib/format';
import { reasonExplained } from '@/lib/reasons';

/**
 * Each rule's figures now (a peek), beside what a check of `cost` would get from it: the "passes"
 * and "retry after" columns come from the verdict, the rest from the peek (a verdict's figures
 * are after its hypothetical charge).
 */
function merged(now: readonly RuleFigures[], next: readonly RuleFigures[]): RuleFigures[] {
  return now.map((rule) => {
    const verdict = next.find((candidate) => candidate.name === rule.name);
    return {
      ...rule,
      allowed: verdict?.allowed ?? null,
      retryAfterMs: verdict?.retryAfterMs ?? null,
    };
  });
}

function verdictText(next: IdentifierDecisionFieldsFragment, cost: number): string {
  if (next.allowed) {
    return next.reason === 'shadow'
      ? `A check of cost ${formatNumber(cost)} would be allowed now: the policy runs in shadow mode, enforced ${next.deniedBy ?? 'a rule'} would deny it.`
      : `A check of cost ${formatNumber(cost)} would be allowed now.`;
  }
  const wait =
    next.retryAfterMs < 0
      ? 'It can never pass at this cost (more than the rule ever holds).'
      : `It could pass in ${formatWait(next.retryAfterMs)}.`;
  return `${reasonExplained(next.reason)}${next.deniedBy ? ` The rule that would deny a check of cost ${formatNumber(cost)}: ${next.deniedBy}.` : ''} ${wait}`;
}

/** The identifier now: the next check's verdict, each rule's state, the override that applies. */
export function IdentifierNow({
  now,
  next,
  cost,
  overrideLabel,
  updatedAt,
}: {
  now: IdentifierDecisionFieldsFragment;
  next: IdentifierDecisionFieldsFragment;
  cost: number;
  /** The override that applies, as the overrides list names it. */
  overrideLabel: string | undefined;
  updatedAt: Date | undefined;
}) {
  const passes = `A check of cost ${formatNumber(cost)} passes`;
  return (
    <Card withBorder component="section" aria-labelledby="identifier-now" padding="lg">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Group gap="xs">
            <Title order={2} size="h4" id="identifier-now">
              Now
            </Title>
            <Badge color={next.allowed ? 'teal' : 'red'} variant="light">
              next check {next.allowed ? 'allowed' : 'denied'}
            </Badge>
          </Group>
          {updatedAt && (
            <Text size="xs" c="dimmed">
              Read {formatTimestamp(updatedAt)} · every 2 s
            </Text>
          )}
        </Group>
        <Text size="sm">
          {verdictText(next, cost)}
          {overrideLabel && ` An override applies: ${overrideLabel}.`}
        </Text>
        {now.rules.length === 0 ? (
          <Text size="sm" c="dimmed">
            The policy has no rule to read.
          </Text>
        ) : (
          <RuleFiguresTable rules={merged(now.rules, next.rules)} passedHeader={passes} />
        )}
        {now.candidates.length > 0 && (
          <>
            <Title order={3} size="h5" mt="xs">
              Candidate rules (counted, never enforced)
            </Title>
            <RuleFiguresTable
              rules={merged(now.candidates, next.candidates)}
              passedHeader={passes}
            />
          </>
        )}
      </Stack>
    </Card>
  );
}
