'use client';

import {
  Alert,
  Button,
  Fieldset,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { CounterResetView } from '@/components/counters-reset-list';
import { TryPlanPolicyCandidatesDocument } from '@/components/shadow-trial/documents';
import { ProposalEstimate } from '@/components/shadow-trial/proposal-estimate';
import { CANDIDATES_CHANGE } from '@/components/shadow-trial/try-in-shadow-modal';
import { apiError } from '@/lib/errors';
import { DurationInput } from '@/components/policy-editor/duration-input';
import type { AfreshRule } from '@/components/policy-editor/policy-draft';
import { ALGORITHM_LABELS, formatParam, paramUnit } from '@/lib/rules';
import { ChangePlanPolicyDocument } from './documents';
import { candidateInputs, initialTryValues, ruleInputOf } from './plan-candidates';
import {
  changeErrors,
  changeInputs,
  changeProblems,
  changeableRules,
  initialChangeValues,
  windowChanges,
  type ChangeableParam,
  type ChangeableRule,
  type ChangeValues,
} from './plan-change';
import type { EffectivePolicyView } from './policy-card';
import { planRange } from './policy-reading';
import { WindowChangeAlert } from './window-change-alert';

export interface PolicySaved {
  message: string;
  countersReset: readonly CounterResetView[];
}

function fieldHint(rule: ChangeableRule, param: ChangeableParam): string {
  const now =
    param.current === null
      ? 'Not set.'
      : `Now ${formatParam(param.name, param.current)}, ${
          param.source === 'PLAN' ? 'the plan’s value' : 'the tenant’s change'
        }.`;
  const range = planRange(rule.algorithm, param);
  return [now, range && `The plan allows ${range}.`, 'Empty: the plan’s value.']
    .filter(Boolean)
    .join(' ');
}

/**
 * Changes the values of a plan's template that the plan opens to the tenant, within the plan's
 * bounds (checked here, and by the API). A change of window is confirmed first: its rule's
 * counters start afresh. To `try` them instead, the values run in shadow as the tenant's
 * candidates (on their own counters, never denying), estimated against the heaviest identifiers
 * first.
 */
export function ChangePlanPolicyModal({
  tenantId,
  policy,
  purpose = 'change',
  onClose,
  onSaved,
}: {
  tenantId: string;
  policy: EffectivePolicyView;
  purpose?: 'change' | 'try';
  onClose: () => void;
  onSaved: (saved: PolicySaved) => void;
}) {
  const trying = purpose === 'try';
  const rules = changeableRules(policy.rules);
  const [changing, change] = useMutation(ChangePlanPolicyDocument);
  const [tryingOut, tryCandidates] = useMutation(TryPlanPolicyCandidatesDocument);
  const fetching = changing.fetching || tryingOut.fetching;
  const [failure, setFailure] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<AfreshRule[]>();
  const form = useForm<{ rules: ChangeValues }>({
    initialValues: {
      rules: trying
        ? initialTryValues(rules, policy.rules, initialChangeValues(rules))
        : initialChangeValues(rules),
    },
    validate: (values) => changeProblems(rules, values.rules),
    validateInputOnChange: true,
  });

  const showFailure = (fields: Record<string, string>, general: string[], message: string) => {
    form.setErrors(fields);
    const onFields = Object.keys(fields).length > 0;
    setFailure(
      general.length > 0 ? general : [onFields ? 'Check the fields marked below.' : message],
    );
  };

  const runInShadow = async () => {
    setFailure([]);
    const candidateRules = candidateInputs(rules, policy.rules, form.values.rules);
    if (candidateRules.length === 0) {
      setFailure([
        'Nothing to try: these are the values your checks use now. Change a value first.',
      ]);
      return;
    }
    const result = await tryCandidates(
      { input: { tenantId, policy: policy.name, candidateRules } },
      CANDIDATES_CHANGE,
    );
    if (result.error) {
      const { issues, message } = apiError(result.error);
      const sent = candidateRules.map((c) => ({ name: c.replaces ?? c.name }));
      const { fields, general } = changeErrors(issues, sent, 'candidateRules');
      showFailure(fields, general, message);
      return;
    }
    onSaved({
      message: `${candidateRules.map((c) => c.name).join(', ')} run in shadow on ${policy.name}, for your checks only.`,
      countersReset: result.data?.tryPlanPolicyCandidates.countersReset ?? [],
    });
  };

  const save = async () => {
    setFailure([]);
    const inputs = changeInputs(rules, form.values.rules);
    const result = await change({
      input: { tenantId, policy: policy.name, rules: inputs },
    });
    setConfirming(undefined);
    if (result.error) {
      const { issues, message } = apiError(result.error);
      const { fields, general } = changeErrors(issues, inputs);
      showFailure(fields, general, message);
      return;
    }
    onSaved({
      message:
        inputs.length === 0
          ? `${policy.name} has the plan’s values again.`
          : `Your values of ${policy.name} are saved.`,
      countersReset: result.data?.changePlanPolicy.countersReset ?? [],
    });
  };

  const submit = form.onSubmit(() => {
    if (trying) return void runInShadow();
    const inputs = changeInputs(rules, form.values.rules);
    if (inputs.length === 0 && !policy.changed) {
      setFailure(['Nothing to save: these are the plan’s values. Change a value first.']);
      return;
    }
    const changes = windowChanges(rules, inputs);
    if (changes.length > 0) setConfirming(changes);
    else void save();
  });

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={trying ? `Try new values for ${policy.name} in shadow` : `Change ${policy.name}`}
      size="lg"
    >
      {confirming ? (
        <Stack>
          <WindowChangeAlert changes={confirming} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(undefined)}>
              Back to the form
            </Button>
            <Button loading={fetching} onClick={() => void save()}>
              Change the window
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {trying
                ? `${policy.name} comes from your plan. Values you try run in shadow beside the plan’s rules, for your checks only, on their own counters and never denying: you see what they would have denied, then apply or discard them.`
                : `${policy.name} comes from your plan, which lets you choose these values within its range. The rest stays the plan’s.`}
            </Text>
            {failure.length > 0 && (
              <Alert
                color="red"
                role="alert"
                title={trying ? 'The proposal was not saved' : 'The change was not saved'}
              >
                {failure.map((message) => (
                  <Text key={message} size="sm">
                    {message}
                  </Text>
                ))}
              </Alert>
            )}
            {rules.map((rule) => (
              <Fieldset
                key={rule.name}
                legend={`Rule ${rule.name} · ${ALGORITHM_LABELS[rule.algorithm]}`}
              >
                <SimpleGrid cols={{ base: 1, xs: 2 }}>
                  {rule.params.map((param) => {
                    const path = `rules.${rule.name}.${param.name}`;
                    const value = form.values.rules[rule.name]?.[param.name] ?? '';
                    return typeof value === 'object' || paramUnit(param.name) === 'duration' ? (
                      <DurationInput
                        key={param.name}
                        label={param.label}
                        description={fieldHint(rule, param)}
                        value={typeof value === 'object' ? value : { amount: value, unit: 'min' }}
                        error={form.errors[path] as string | undefined}
                        onChange={(draft) => {
                          form.setFieldValue(path, draft);
                          form.validateField(path);
                        }}
                      />
                    ) : (
                      <NumberInput
                        key={param.name}
                        label={param.label}
                        description={fieldHint(rule, param)}
                        placeholder="The plan’s value"
                        allowDecimal={!param.integer}
                        allowNegative={false}
                        clampBehavior="none"
                        {...form.getInputProps(path)}
                        // an emptied field is '' (never undefined), so the input stays controlled
                        value={value}
                      />
                    );
                  })}
                </SimpleGrid>
              </Fieldset>
            ))}
            {trying && (
              <ProposalEstimate
                tenantId={tenantId}
                policy={policy.name}
                live={policy.rules.filter((rule) => !rule.candidate).map(ruleInputOf)}
                proposed={
                  Object.keys(changeProblems(rules, form.values.rules)).length === 0
                    ? candidateInputs(rules, policy.rules, form.values.rules)
                    : undefined
                }
              />
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={fetching}>
                {trying ? 'Run in shadow' : 'Save the values'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
