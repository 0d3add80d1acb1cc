'use client';

import {
  Alert,
  Button,
  Group,
  List,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { CombinedError } from 'urql';
import type { PolicySettingsInput } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { DurationInput } from './duration-input';
import { FailureAlert } from './failure-alert';
import {
  blankRule,
  countersAfresh,
  draftProblems,
  editorFailure,
  localTimeZone,
  policyDraft,
  toPolicyInput,
  type AfreshRule,
  type EditablePolicy,
  type PolicyDraft,
} from './policy-draft';
import { MONOSPACE, RuleFields } from './rule-fields';

export interface PolicyEditorProps {
  /** The stored policy to edit (the API's `Policy`); absent: a new policy with one empty rule. */
  policy?: EditablePolicy | undefined;
  /**
   * A plan template: each live rule also says which parameters tenants may change, and within
   * which range (`tenantBounds`). A tenant's own policy has none.
   */
  template?: boolean;
  /** The save button's words, e.g. "Create the template". */
  submitLabel: string;
  /**
   * Sends the whole policy (`createPolicy`, `updatePlanPolicy`…) and resolves with the
   * mutation's error, if any: the editor puts its field issues on their fields. On success the
   * caller closes the editor and shows what the API answered (its `countersReset`).
   */
  onSubmit: (input: PolicySettingsInput) => Promise<CombinedError | undefined>;
  onCancel: () => void;
}

const MODES = [
  { value: 'ENFORCE', label: 'Enforce (denies)' },
  { value: 'SHADOW', label: 'Shadow (counts, allows)' },
];
const FAIL_MODES = [
  { value: 'OPEN', label: 'Open: allow' },
  { value: 'CLOSED', label: 'Closed: refuse (503)' },
  { value: 'LOCAL', label: 'Local: a limiter in process' },
];

/**
 * Edits a whole policy as the API's `PolicySettingsInput`: its settings, its rules and candidate
 * rules (added and removed), each rule's values as its algorithm needs them, with a plain reading
 * that follows the typing. Saving a change of a stored rule's algorithm or window is confirmed
 * first, naming the rules whose counters start afresh. A form, not a dialog: put it in a modal or
 * a page.
 */
export function PolicyEditor({
  policy,
  template = false,
  submitLabel,
  onSubmit,
  onCancel,
}: PolicyEditorProps) {
  const [timeZone] = useState(localTimeZone);
  const form = useForm<PolicyDraft>({
    initialValues: policyDraft(policy, timeZone),
    validate: draftProblems,
  });
  const [failure, setFailure] = useState<string[]>([]);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState<{
    input: PolicySettingsInput;
    afresh: AfreshRule[];
  }>();

  const save = async (input: PolicySettingsInput) => {
    setFailure([]);
    setPending(true);
    const error = await onSubmit(input);
    setPending(false);
    setConfirming(undefined);
    if (!error) return;
    // a field's issue is shown on its field: the alert only says to look there
    const { fields, lines } = editorFailure(apiError(error));
    form.setErrors(fields);
    setFailure(lines);
  };

  const submit = form.onSubmit((values) => {
    const input = toPolicyInput(values, template);
    const afresh = policy ? countersAfresh(policy.rules, input) : [];
    if (afresh.length > 0) setConfirming({ input, afresh });
    else void save(input);
  });

  if (confirming) {
    return (
      <Stack>
        <Alert color="yellow" title="Counters will start afresh">
          <Text size="sm" mb="xs">
            These rules change their algorithm or their window, so they decide on new counters: what
            they counted so far no longer counts{template ? ', for every tenant on the plan' : ''}.
          </Text>
          <List size="sm">
            {confirming.afresh.map((rule) => (
              <List.Item key={`${rule.rule}/${rule.candidate}`}>
                {rule.rule}
                {rule.candidate && ' (candidate)'}: {rule.before} → {rule.after}
              </List.Item>
            ))}
          </List>
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(undefined)}>
            Back to the form
          </Button>
          <Button loading={pending} onClick={() => void save(confirming.input)}>
            Save and start them afresh
          </Button>
        </Group>
      </Stack>
    );
  }

  const ruleList = (list: 'rules' | 'candidateRules') =>
    form.values[list].map((rule, index) => (
      <RuleFields
        key={rule.key}
        form={form}
        list={list}
        index={index}
        template={template}
        onRemove={() => form.removeListItem(list, index)}
      />
    ));

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <FailureAlert title="The policy was not saved" lines={failure} />
        <TextInput
          label="Name"
          description="1 to 63 of a-z 0-9 - _; checks name the policy by it"
          required
          data-autofocus
          styles={MONOSPACE}
          {...form.getInputProps('name')}
        />
        <Textarea label="Description" autosize minRows={1} {...form.getInputProps('description')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NativeSelect
            label="Mode"
            description="Shadow decides and counts, but never denies"
            data={MODES}
            {...form.getInputProps('mode')}
          />
          <NativeSelect
            label="When Redis fails"
            description="Or answers too slowly"
            data={FAIL_MODES}
            {...form.getInputProps('failMode')}
          />
          <NumberInput
            label="Redis timeout (ms)"
            description="1 to 1,000"
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            {...form.getInputProps('redisTimeoutMs')}
          />
        </SimpleGrid>
        <Group align="flex-end">
          <Switch
            label="Reservations"
            description="Checks with a cost return a reservation to settle"
            {...form.getInputProps('reservations', { type: 'checkbox' })}
          />
          {form.values.reservations && (
            <DurationInput
              label="An unsettled reservation expires after"
              value={form.values.reservationTtlMs}
              error={form.errors['reservationTtlMs'] as string | undefined}
              onChange={(value) => {
                form.setFieldValue('reservationTtlMs', value);
                form.clearFieldError('reservationTtlMs');
              }}
            />
          )}
        </Group>

        <div>
          <Title order={3} size="h4">
            Rules
          </Title>
          <Text size="sm" c="dimmed">
            A check passes only if every rule allows it.
          </Text>
        </div>
        {ruleList('rules')}
        {form.errors['rules'] && (
          <Text size="sm" c="red" role="alert">
            {form.errors['rules']}
          </Text>
        )}
        <Group>
          <Button variant="light" onClick={() => form.insertListItem('rules', blankRule(timeZone))}>
            Add a rule
          </Button>
        </Group>

        <div>
          <Title order={3} size="h4">
            Candidate rules
          </Title>
          <Text size="sm" c="dimmed">
            Decided in shadow beside the rules, on their own counters: they never deny. Try a new
            limit here before making it a rule.
          </Text>
        </div>
        {ruleList('candidateRules')}
        <Group>
          <Button
            variant="light"
            onClick={() => form.insertListItem('candidateRules', blankRule(timeZone))}
          >
            Add a candidate rule
          </Button>
        </Group>

        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
