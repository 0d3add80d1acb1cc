'use client';

import {
  Alert,
  Button,
  Group,
  List,
  Modal,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useMutation } from 'urql';
import type { CounterResetView } from '@/components/counters-reset-list';
import type { OverridablePoliciesQuery, OverridesQuery } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { CreateOverrideDocument, UpdateOverrideDocument } from './documents';
import { OverrideRuleFields, type OfferedRule } from './override-rule-fields';
import {
  blankRuleValues,
  identifierInput,
  identifierProblem,
  lockedParams,
  offeredParams,
  overrideFormErrors,
  ruleValuesOf,
  toRuleInputs,
  windowChanges,
  type Match,
  type RuleValues,
  type WindowChange,
} from './override-rules';

export type OverrideRow = OverridesQuery['overrides']['nodes'][number];
export type OverridablePolicy = OverridablePoliciesQuery['effectivePolicies'][number];

interface Values {
  policy: string;
  match: Match;
  identifier: string;
  rules: RuleValues;
  /** `YYYY-MM-DD HH:mm:ss` in the reader's time zone (the picker's value), or null: never. */
  expiresAt: string | null;
  reason: string;
}

const PICKER_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const EXPIRY_PRESETS = [
  { label: 'In 1 hour', amount: 1, unit: 'hour' },
  { label: 'In 1 day', amount: 1, unit: 'day' },
  { label: 'In 7 days', amount: 7, unit: 'day' },
  { label: 'In 30 days', amount: 30, unit: 'day' },
] as const;

/** The rules of `policy` an override may change for this user, with their parameters. */
function offeredRules(policy: OverridablePolicy | undefined, operator: boolean): OfferedRule[] {
  if (!policy) return [];
  const template = policy.source === 'PLAN';
  return policy.rules
    .filter((rule) => !rule.candidate)
    .map((rule) => ({
      name: rule.name,
      algorithm: rule.algorithm,
      params: offeredParams(rule, { template, operator }),
    }));
}

export interface OverrideSaved {
  message: string;
  countersReset: readonly CounterResetView[];
}

/**
 * Creates an override or edits one: the policy, who it applies to (an identifier or a prefix),
 * the rules' new values, an expiry and a reason. A change of window is confirmed first: the
 * identifiers' counters of that rule start afresh.
 */
export function OverrideFormModal({
  tenantId,
  policies,
  operator,
  existing,
  preset,
  onClose,
  onSaved,
}: {
  tenantId: string;
  policies: readonly OverridablePolicy[];
  operator: boolean;
  existing?: OverrideRow | undefined;
  /** A new override's policy and exact identifier, filled in (from a request log entry). */
  preset?: { policy: string; identifier: string } | undefined;
  onClose: () => void;
  onSaved: (saved: OverrideSaved) => void;
}) {
  const [created, create] = useMutation(CreateOverrideDocument);
  const [updated, update] = useMutation(UpdateOverrideDocument);
  const [failure, setFailure] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<WindowChange[]>();
  const fieldsOf = (name: string, values?: RuleValues) =>
    blankRuleValues(
      offeredRules(
        policies.find((p) => p.name === name),
        operator,
      ).map((rule) => ({ rule: rule.name, params: rule.params.map((p) => p.name) })),
      values,
    );
  const presetPolicy = policies.some((p) => p.name === preset?.policy) ? preset?.policy : undefined;
  const initialPolicy = existing?.policy ?? presetPolicy ?? policies[0]?.name ?? '';
  const form = useForm<Values>({
    initialValues: {
      policy: initialPolicy,
      match: existing?.match ?? 'EXACT',
      identifier: existing ? existing.identifier.replace(/\*$/, '') : (preset?.identifier ?? ''),
      rules: fieldsOf(initialPolicy, existing && ruleValuesOf(existing.rules)),
      expiresAt: existing?.expiresAt ? dayjs(existing.expiresAt).format(PICKER_FORMAT) : null,
      reason: existing?.reason ?? '',
    },
    validate: {
      identifier: (value, values) => (existing ? null : identifierProblem(values.match, value)),
      policy: (value) => (value ? null : 'Choose a policy'),
      reason: (value) => (value.trim().length > 500 ? 'At most 500 characters' : null),
    },
  });
  const policy = policies.find((p) => p.name === form.values.policy);
  const rules = useMemo(() => offeredRules(policy, operator), [policy, operator]);
  const template = policy?.source === 'PLAN';
  const target = existing
    ? existing.identifier
    : identifierInput(form.values.match, form.values.identifier);

  const offered = rules.map((rule) => ({
    rule: rule.name,
    params: rule.params.map((p) => p.name),
  }));
  // an override setting what this user may not (an operator's, beyond the plan): its rules stay
  const locked = existing ? lockedParams(existing.rules, offered, !template || operator) : [];
  const ruleInputs = () => toRuleInputs(form.values.rules, offered, existing?.rules);

  const save = async () => {
    setFailure([]);
    const inputs = ruleInputs();
    const expiresAt = form.values.expiresAt ? dayjs(form.values.expiresAt).toISOString() : null;
    const reason = form.values.reason.trim();
    const { error, payload } = existing
      ? await update({
          id: existing.id,
          input: {
            ...(locked.length === 0 && { rules: inputs }),
            reason,
            ...(expiresAt ? { expiresAt } : existing.expiresAt && { clearExpiry: true }),
          },
        }).then((r) => ({ error: r.error, payload: r.data?.updateOverride }))
      : await create(
          {
            input: {
              tenantId,
              policy: form.values.policy,
              identifier: target,
              rules: inputs,
              reason,
              ...(expiresAt && { expiresAt }),
            },
          },
          { additionalTypenames: ['Override'] },
        ).then((r) => ({ error: r.error, payload: r.data?.createOverride }));
    setConfirming(undefined);
    if (error) {
      const { issues, message } = apiError(error);
      const { fields, general } = overrideFormErrors(issues, inputs);
      form.setErrors(fields);
      // a field's issue is shown on its field: the alert only says to look there
      const onFields = Object.keys(fields).length > 0;
      setFailure(
        general.length > 0 ? general : [onFields ? 'Check the fields marked below.' : message],
      );
      return;
    }
    onSaved({
      message: existing
        ? `The override for ${target} is saved.`
        : `The override of ${form.values.policy} for ${target} is created.`,
      countersReset: payload?.countersReset ?? [],
    });
  };

  const submit = form.onSubmit(() => {
    const inputs = ruleInputs();
    if (locked.length === 0 && inputs.length === 0) {
      setFailure(['Set at least one parameter of a rule: an override changes something.']);
      return;
    }
    const changes =
      locked.length === 0 ? windowChanges(policy?.rules ?? [], existing?.rules ?? [], inputs) : [];
    if (changes.length > 0) setConfirming(changes);
    else void save();
  });

  const pending = created.fetching || updated.fetching;
  const title = existing ? `Edit the override for ${existing.identifier}` : 'New override';
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={title}
      size="lg"
    >
      {confirming ? (
        <Stack>
          <Alert color="yellow" title="Counters will start afresh">
            <Text size="sm" mb="xs">
              This changes a window, so the counters of {target} for these rules start from zero:
              what they counted so far no longer counts.
            </Text>
            <List size="sm">
              {confirming.map((change) => (
                <List.Item key={change.rule}>
                  {change.rule}: window {change.before} → {change.after}
                </List.Item>
              ))}
            </List>
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(undefined)}>
              Back to the form
            </Button>
            <Button loading={pending} onClick={() => void save()}>
              Change the window
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            {failure.length > 0 && (
              <Alert color="red" role="alert" title="The override was not saved">
                {failure.map((message) => (
                  <Text key={message} size="sm">
                    {message}
                  </Text>
                ))}
              </Alert>
            )}
            {existing ? (
              <Text size="sm">
                Policy <b>{existing.policy}</b>,{' '}
                {existing.match === 'PREFIX' ? 'identifiers starting with ' : 'identifier '}
                <Text span ff="monospace">
                  {existing.identifier.replace(/\*$/, '')}
                </Text>
                .
              </Text>
            ) : (
              <>
                <Select
                  label="Policy"
                  required
                  data={policies.map((p) => ({
                    value: p.name,
                    label: p.source === 'PLAN' ? `${p.name} (plan)` : p.name,
                  }))}
                  {...form.getInputProps('policy')}
                  onChange={(value) => {
                    form.setFieldValue('policy', value ?? '');
                    form.setFieldValue('rules', fieldsOf(value ?? ''));
                  }}
                  allowDeselect={false}
                />
                <Radio.Group label="Applies to" {...form.getInputProps('match')}>
                  <Group mt="xs">
                    <Radio value="EXACT" label="One identifier" />
                    <Radio value="PREFIX" label="Every identifier starting with a prefix" />
                  </Group>
                </Radio.Group>
                <TextInput
                  label={form.values.match === 'PREFIX' ? 'Prefix' : 'Identifier'}
                  description={
                    form.values.match === 'PREFIX'
                      ? 'e.g. premium_ for premium_42 and premium_eu; the longest matching prefix wins, an exact identifier beats any prefix'
                      : 'A user, an IP, an API client… as your checks name it'
                  }
                  required
                  data-autofocus
                  ff="monospace"
                  {...form.getInputProps('identifier')}
                />
              </>
            )}
            {template && !operator && (
              <Text size="sm" c="dimmed">
                {form.values.policy} is a policy of your plan: an override may change what the plan
                opens to you, within its bounds.
              </Text>
            )}
            {locked.length > 0 ? (
              <Alert color="gray" title="Its rules are kept as they are">
                This override sets {locked.join(', ')}, which your plan does not open to you: only
                an operator can change its rules. You can change its expiry and reason.
              </Alert>
            ) : (
              <OverrideRuleFields form={form} rules={rules} />
            )}
            <DateTimePicker
              label="Expires"
              description="Empty: never. After it the override is kept (listed as expired) but no check applies it."
              clearable
              clearButtonProps={{ 'aria-label': 'Remove the expiry' }}
              minDate={new Date()}
              submitButtonProps={{ 'aria-label': 'Set the expiry' }}
              valueFormat={(value) => formatDateTime(dayjs(value).toDate())}
              presets={EXPIRY_PRESETS.map((preset) => ({
                label: preset.label,
                value: dayjs().add(preset.amount, preset.unit).format(PICKER_FORMAT),
              }))}
              {...form.getInputProps('expiresAt')}
            />
            <Textarea
              label="Reason"
              description="Why: shown in the checks' traces and here"
              autosize
              minRows={2}
              maxLength={500}
              {...form.getInputProps('reason')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={pending}>
                {existing ? 'Save the override' : 'Create the override'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
