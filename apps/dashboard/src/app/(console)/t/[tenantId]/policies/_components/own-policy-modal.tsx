'use client';

import { Modal } from '@mantine/core';
import { useMutation } from 'urql';
import type { EditablePolicy } from '@/components/policy-editor/policy-draft';
import { PolicyEditor } from '@/components/policy-editor/policy-editor';
import type { PolicySettingsInput } from '@/generated/gql/graphql';
import type { PolicySaved } from './change-plan-policy-modal';
import { CreatePolicyDocument, UpdatePolicyDocument } from './documents';

/** What a change of the tenant's own policies refreshes: both lists of this page. */
export const OWN_POLICY_CHANGE = { additionalTypenames: ['EffectivePolicy', 'Policy'] };

/** Creates a policy of the tenant's own, or edits one, with the policy editor. */
export function OwnPolicyModal({
  tenantId,
  policy,
  onClose,
  onSaved,
}: {
  tenantId: string;
  /** The policy to edit, as `tenantPolicies` gives it; absent: a new one. */
  policy?: (EditablePolicy & { id: string }) | undefined;
  onClose: () => void;
  onSaved: (saved: PolicySaved) => void;
}) {
  const [, create] = useMutation(CreatePolicyDocument);
  const [, update] = useMutation(UpdatePolicyDocument);
  const submit = async (input: PolicySettingsInput) => {
    const result = policy
      ? await update({ id: policy.id, input }, OWN_POLICY_CHANGE).then((r) => ({
          error: r.error,
          payload: r.data?.updatePolicy,
        }))
      : await create({ tenantId, input }, OWN_POLICY_CHANGE).then((r) => ({
          error: r.error,
          payload: r.data?.createPolicy,
        }));
    if (result.payload) {
      onSaved({
        message: policy ? `${input.name} is saved.` : `${input.name} is created.`,
        countersReset: result.payload.countersReset,
      });
    }
    return result.error;
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={policy ? `Edit ${policy.name}` : 'New policy'}
      size="xl"
    >
      <PolicyEditor
        policy={policy}
        submitLabel={policy ? 'Save the policy' : 'Create the policy'}
        onSubmit={submit}
        onCancel={onClose}
      />
    </Modal>
  );
}
