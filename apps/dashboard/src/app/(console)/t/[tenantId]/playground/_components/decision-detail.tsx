'use client';

import { Group, Stack, Text, Title } from '@mantine/core';
import { OutcomeBadge, ResponseHeaders, RuleFiguresTable } from '@/components/decision-figures';
import { reasonExplained } from '@/lib/reasons';
import type { PlaygroundDecision } from '../_hooks/use-playground';

/**
 * One decision in full: why, each rule's figures (candidates beside), the headers `/v1/check`
 * sends, and what gateway mode would answer.
 */
export function DecisionDetail({
  title,
  decision,
}: {
  title: string;
  decision: PlaygroundDecision;
}) {
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Title order={3} size="h4">
          {title}
        </Title>
        <OutcomeBadge allowed={decision.allowed} shadow={decision.reason === 'shadow'} />
      </Group>
      <Text size="sm">
        {reasonExplained(decision.reason)}
        {decision.deniedBy && ` The rule that denied: ${decision.deniedBy}.`}
        {decision.overrideId && ` An override applied (${decision.overrideId}).`}
      </Text>
      <section aria-labelledby="decision-rules">
        <Title order={4} size="h5" id="decision-rules" mb="xs">
          Rules
        </Title>
        {decision.rules.length === 0 ? (
          <Text size="sm" c="dimmed">
            Decided without Redis: no rule was read.
          </Text>
        ) : (
          <RuleFiguresTable rules={decision.rules} />
        )}
      </section>
      {decision.candidates.length > 0 && (
        <section aria-labelledby="decision-candidates">
          <Title order={4} size="h5" id="decision-candidates" mb="xs">
            Candidate rules (counted, never enforced)
          </Title>
          <RuleFiguresTable rules={decision.candidates} />
        </section>
      )}
      <section aria-labelledby="decision-headers">
        <Title order={4} size="h5" id="decision-headers" mb="xs">
          Response: {decision.status}, in gateway mode {decision.gatewayStatus}
        </Title>
        <ResponseHeaders headers={decision.headers} />
        {decision.problemDetail && (
          <Text size="sm" mt="xs">
            Gateway mode&apos;s problem+json says: “{decision.problemDetail}”
          </Text>
        )}
      </section>
    </Stack>
  );
}
