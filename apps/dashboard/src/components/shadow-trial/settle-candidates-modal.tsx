'use client';

import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { CounterResetView } from '@/components/counters-reset-list';
import { apiError } from '@/lib/errors';
import {
  ApplyCandidateRulesDocument,
  ApplyPlanPolicyCandidatesDocument,
  DiscardCandidateRulesDocument,
  DiscardPlanPolicyCandidatesDocument,
} from './documents';
import { CANDIDATES_CHANGE } from './try-in-shadow-modal';

/** A policy's rule, as far as the confirmation needs it. */
interface SettledRule {
  name: string;
  candidate: boolean;
  /** Candidates: the live rule it proposes new values for; null: a new rule. */
  replaces?: string | null;
  /** TENANT on a plan's policy: the tenant's own candidate. */
  source?: string;
}

/** What applying or discarding did, and its words. */
export interface CandidatesSettled {
  message: string;
  countersReset: readonly CounterResetView[];
  /** A policy's own candidates (`CandidateRulesPayload`); absent for a tenant's change. */
  tenants?: { republished: number; trimmed: number };
}

/**
 * Applies a policy's candidate rules (each into the rule it replaces, or as a new rule) or
 * discards them, in one step, after saying what that does. With `tenantChange`, the tenant's own
 * candidates for a plan's policy: applied, they become its values of the plan's rules.
 */
export function SettleCandidatesModal<Rule extends SettledRule>({
  action,
  policy,
  read,
  template = false,
  tenantChange,
  onClose,
  onSettled,
}: {
  action: 'apply' | 'discard';
  policy: { id: string; name: string; rules: readonly Rule[] };
  /** A rule's values in words. */
  read: (rule: Rule) => string;
  template?: boolean;
  /** The tenant whose candidates for this plan's policy are settled. */
  tenantChange?: string;
  onClose: () => void;
  onSettled: (settled: CandidatesSettled) => void;
}) {
  const [apply, applyRules] = useMutation(ApplyCandidateRulesDocument);
  const [discard, discardRules] = useMutation(DiscardCandidateRulesDocument);
  const [applyChange, applyChangeRules] = useMutation(ApplyPlanPolicyCandidatesDocument);
  const [discardChange, discardChangeRules] = useMutation(DiscardPlanPolicyCandidatesDocument);
  const [failure, setFailure] = useState<string>();
  const applying = action === 'apply';
  const candidates = policy.rules.filter(
    (rule) => rule.candidate && (tenantChange === undefined || rule.source === 'TENANT'),
  );
  const everyone = template ? ' for every tenant on the plan' : '';

  const settle = async () => {
    if (tenantChange !== undefined) {
      const variables = { tenantId: tenantChange, policy: policy.name };
      const result = applying
        ? await applyChangeRules(variables, CANDIDATES_CHANGE).then((r) => ({
            error: r.error,
            payload: r.data?.applyPlanPolicyCandidates,
          }))
        : await discardChangeRules(variables, CANDIDATES_CHANGE).then((r) => ({
            error: r.error,
            payload: r.data?.discardPlanPolicyCandidates,
          }));
      return {
        error: result.error,
        payload: result.payload && { countersReset: result.payload.countersReset },
      };
    }
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
    return {
      error: result.error,
      payload: result.payload && {
        countersReset: result.payload.countersReset,
        tenants: {
          republished: result.payload.tenantsRepublished,
          trimmed: result.payload.tenantsTrimmed,
        },
      },
    };
  };

  const confirm = async () => {
    setFailure(undefined);
    const result = await settle();
    if (result.error) return setFailure(apiError(result.error).message);
    if (!result.payload) return;
    onSettled({
      message: applying
        ? tenantChange !== undefined
          ? `Your candidates for ${policy.name} are now your values of it.`
          : `The candidates of ${policy.name} are live.`
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
            ? tenantChange !== undefined
              ? `These become your values of the plan’s rules, in a new version:`
              : `These become live rules${everyone}, in a new version:`
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
            loading={
              apply.fetching || discard.fetching || applyChange.fetching || discardChange.fetching
            }
            onClick={() => void confirm()}
          >
            {applying ? 'Apply them' : 'Discard them'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
