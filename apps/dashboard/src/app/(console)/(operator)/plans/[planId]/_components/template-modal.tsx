'use client';

import { Modal } from '@mantine/core';
import { useMutation } from 'urql';
import { PolicyEditor } from '@/components/policy-editor/policy-editor';
import type { EditablePolicy } from '@/components/policy-editor/policy-draft';
import type { PolicySettingsInput } from '@/generated/gql/graphql';
import { CreatePlanPolicyDocument, UpdatePlanPolicyDocument } from '../../_components/documents';
import type { TemplateChange } from './change-result';

/** Creates a plan's policy template, or edits one, with the policy editor. */
export function TemplateModal({
  planId,
  template,
  onClose,
  onSaved,
}: {
  planId: string;
  /** The template to edit; absent: a new one. */
  template?: (EditablePolicy & { id: string }) | undefined;
  onClose: () => void;
  onSaved: (name: string, change: TemplateChange) => void;
}) {
  const [, create] = useMutation(CreatePlanPolicyDocument);
  const [, update] = useMutation(UpdatePlanPolicyDocument);
  const submit = async (input: PolicySettingsInput) => {
    if (template) {
      const result = await update({ id: template.id, input });
      if (result.data) onSaved(input.name, result.data.updatePlanPolicy);
      return result.error;
    }
    // a plan without templates has no Policy in its answer: invalidate it by its own type
    const result = await create({ planId, input }, { additionalTypenames: ['Plan'] });
    if (result.data) onSaved(input.name, result.data.createPlanPolicy);
    return result.error;
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={template ? `Edit the template ${template.name}` : 'New policy template'}
      size="xl"
    >
      <PolicyEditor
        policy={template}
        template
        submitLabel={template ? 'Save the template' : 'Create the template'}
        onSubmit={submit}
        onCancel={onClose}
      />
    </Modal>
  );
}
