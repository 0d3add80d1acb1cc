'use client';

import { Modal, Text } from '@mantine/core';
import { useMutation } from 'urql';
import { CandidateRulesEditor } from '@/components/policy-editor/candidate-rules-editor';
import type { EditablePolicy } from '@/components/policy-editor/policy-draft';
import type { RuleInput } from '@/generated/gql/graphql';
import { TryCandidateRulesDocument } from './documents';
import { ProposalEstimate } from './proposal-estimate';

/** What a change of candidates refreshes: the policy lists that show them. */
export const CANDIDATES_CHANGE = { additionalTypenames: ['EffectivePolicy', 'Policy'] };

/**
 * Proposes new limits for a policy and runs them in shadow as its candidate rules. A template's
 * proposal runs for every tenant on its plan.
 */
export function TryInShadowModal({
  policy,
  template = false,
  tenantId,
  onClose,
  onTried,
}: {
  policy: EditablePolicy & { id: string };
  template?: boolean;
  /** A tenant's policy: the proposal is estimated against its heaviest identifiers first. */
  tenantId?: string;
  onClose: () => void;
  onTried: (message: string) => void;
}) {
  const [, tryRules] = useMutation(TryCandidateRulesDocument);
  const submit = async (candidateRules: RuleInput[]) => {
    const result = await tryRules(
      { input: { policyId: policy.id, candidateRules } },
      CANDIDATES_CHANGE,
    );
    const tried = result.data?.tryCandidateRules;
    if (tried) {
      const names = candidateRules.map((rule) => rule.name).join(', ');
      onTried(
        template
          ? `${names} run in shadow on ${policy.name} for ${tried.tenantsRepublished} tenants.`
          : `${names} run in shadow on ${policy.name}.`,
      );
    }
    return result.error;
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={`Try new limits for ${policy.name} in shadow`}
      size="xl"
    >
      {template && (
        <Text size="sm" mb="sm">
          A template’s candidates run for every tenant on the plan.
        </Text>
      )}
      <CandidateRulesEditor
        policy={policy}
        onSubmit={submit}
        onCancel={onClose}
        aside={
          tenantId
            ? (live, proposed) => (
                <ProposalEstimate
                  tenantId={tenantId}
                  policy={policy.name}
                  live={live}
                  proposed={proposed}
                />
              )
            : undefined
        }
      />
    </Modal>
  );
}
