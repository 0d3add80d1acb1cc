'use client';

import { Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import type { CombinedError } from 'urql';
import type { RuleInput } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import {
  blankRule,
  draftProblems,
  editorFailure,
  localTimeZone,
  policyDraft,
  proposalDraft,
  toPolicyInput,
  type EditablePolicy,
  type PolicyDraft,
} from './policy-draft';
import { FailureAlert } from './failure-alert';
import { RuleFields } from './rule-fields';

/**
 * Edits a policy's candidate rules only (its live rules stay as stored): the proposal to try in
 * shadow, prefilled with the running candidates or with a copy of each live rule to change.
 */
export function CandidateRulesEditor({
  policy,
  onSubmit,
  onCancel,
  aside,
}: {
  policy: EditablePolicy;
  /** Shown under the proposal: given the live rules and the proposal (undefined while incomplete). */
  aside?: (live: RuleInput[], proposed: RuleInput[] | undefined) => ReactNode;
  /** Sends the proposal; answers the API's error, if any. */
  onSubmit: (candidateRules: RuleInput[]) => Promise<CombinedError | undefined>;
  onCancel: () => void;
}) {
  const [timeZone] = useState(localTimeZone);
  const form = useForm<PolicyDraft>({
    initialValues: {
      ...policyDraft(policy, timeZone),
      candidateRules: proposalDraft(policy, timeZone),
    },
    validate: (draft) => {
      const problems = draftProblems(draft);
      if (draft.candidateRules.length === 0)
        problems['candidateRules'] = 'Propose at least one rule';
      return problems;
    },
  });
  const [failure, setFailure] = useState<string[]>([]);
  const current = toPolicyInput(form.values, false);
  const complete = Object.keys(draftProblems(form.values)).length === 0;
  const [pending, setPending] = useState(false);

  const submit = form.onSubmit(async (values) => {
    setFailure([]);
    setPending(true);
    const error = await onSubmit(toPolicyInput(values, false).candidateRules ?? []);
    setPending(false);
    if (!error) return;
    const { fields, lines } = editorFailure(apiError(error));
    form.setErrors(fields);
    setFailure(lines);
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FailureAlert title="The proposal was not saved" lines={failure} />
        <Text size="sm" c="dimmed">
          Candidate rules are decided beside the live rules on their own counters and never deny:
          you see what they would have denied before you apply them. Each proposes new values for a
          live rule, or a new rule. Concurrency rules cannot be tried this way.
        </Text>
        {form.values.candidateRules.map((rule, index) => (
          <RuleFields
            key={rule.key}
            form={form}
            list="candidateRules"
            index={index}
            template={false}
            onRemove={() => form.removeListItem('candidateRules', index)}
          />
        ))}
        {form.errors['candidateRules'] && (
          <Text size="sm" c="red" role="alert">
            {form.errors['candidateRules']}
          </Text>
        )}
        {aside?.(current.rules, complete ? (current.candidateRules ?? []) : undefined)}
        <Group justify="space-between">
          <Button
            variant="light"
            onClick={() => form.insertListItem('candidateRules', blankRule(timeZone))}
          >
            Add a candidate rule
          </Button>
          <Group>
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Run in shadow
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
