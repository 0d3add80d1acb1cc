'use client';

import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { CounterResetView } from '@/components/counters-reset-list';
import { apiError } from '@/lib/errors';
import { ApplyCandidateRulesDocument, DiscardCandidateRulesDocument } from './documents';
import { CANDIDATES_CHANGE } from './try-in-shadow-modal';

/** A policy's rule, as far as the confirmation needs it. */
interface SettledRule {
  name: string;
  candidate: boolean;
  /** Candidates: the live rule it proposes new values for; null: a new rule. */
  replaces?: string | null;
}

/** What applying or discarding did (the API's `CandidateRulesPayload`), and its words. */
export interface CandidatesSettled {
  message: string;
  tenantsRepublished: number;
  tenantsTrimmed: number;
  countersReset: readonly CounterResetView[];
}

/**
 * Applies a policy's candidate rules (each into the rule it replaces, or as a new rule) or
 * discards them, in one step, after saying what that does.
 */
export function SettleCandidatesModal<Rule extends SettledRule>({
  action,
  policy,
  read,
  template = false,
  onClose,
  onSettled,
}: {
  action: 'apply' | 'discard';
  policy: { id: string; name: string; rules: readonly Rule[] };
  /** A rule's values in words. */
  read: (rule: Rule) => string;
  template?: boolean;
  onClose: () => void;
  onSettled: (settled: CandidatesSettled) => void;
}) {
  const [apply, applyRules] = useMutation(ApplyCandidateRulesDocument);
  const [discard, discardRules] = useMutation(DiscardCandidateRulesDocument);
  const [failure, setFailure] = useState<string>();
  const applying = action === 'apply';
  const candidates = policy.rules.filter((rule) => rule.candidate);
  const everyone = template ? ' for every tenant on the plan' : '';

  const confirm = async () => {
    setFailure(undefined);
    const variables = { policyId: policy.id };
    const result = applying
      ? await applyRules(variables, CANDIDATES_CHANGE).then((r) => ({
          error: r.error,
          payload: r.data?.applyCandidateRules,
        }))
      : await discardRules(variables, CANDIDATES_CHANGE).then((r) => ({
          error: r.error,
          payload: r.data?.discardCandidateRules,
        }));
    if (result.error) return setFailure(apiError(result.error).message);
    if (!result.payload) return;
    onSettled({
      message: applying
        ? `The candidates of ${policy.name} are live.`
        : `The candidates of ${policy.name} are discarded.`,
      ...result.payload,
    });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={
        applying
          ? `Apply the candidates of ${policy.name}?`
          : `Discard the candidates of ${policy.name}?`
      }
    >
      <Stack>
        {failure && (
          <Alert color="red" role="alert" title="Nothing changed">
            {failure}
          </Alert>
        )}
        <Text size="sm">
          {applying
            ? `These become live rules${everyone}, in a new version:`
            : `These stop running in shadow${everyone}; the live rules stay as they are:`}
        </Text>
        <List size="sm" spacing={4}>
          {candidates.map((candidate) => (
            <List.Item key={candidate.name}>
              {applying && candidate.replaces ? (
                <>
                  <Text span fw={600} size="sm">
                    {candidate.replaces}
                  </Text>{' '}
                  takes {candidate.name}’s values: {read(candidate)}
                </>
              ) : (
                <>
                  <Text span fw={600} size="sm">
                    {candidate.name}
                  </Text>
                  {applying ? ' is added: ' : ': '}
                  {read(candidate)}
                </>
              )}
            </List.Item>
          ))}
        </List>
        {applying && (
          <Text size="xs" c="dimmed">
            A rule that keeps its algorithm and window keeps its counters: what identifiers spent
            still counts against the new limits.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color={applying ? undefined : 'red'}
            loading={apply.fetching || discard.fetching}
            onClick={() => void confirm()}
          >
            {applying ? 'Apply them' : 'Discard them'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
