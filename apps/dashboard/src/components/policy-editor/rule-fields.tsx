'use client';

import {
  Button,
  Fieldset,
  Group,
  NativeSelect,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import type { Algorithm } from '@/generated/gql/graphql';
import { ALGORITHM_LABELS, type ParamSpec } from '@/lib/rules';
import { DurationInput } from './duration-input';
import {
  readableRule,
  ruleParams,
  withAlgorithm,
  type PolicyDraft,
  type RuleDraft,
} from './policy-draft';
import { ruleReading } from './rule-reading';
import { TenantBoundsFields } from './tenant-bounds-fields';

/** Names typed as code are shown as code, in the input only (not its label). */
export const MONOSPACE = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** Every IANA time zone the browser knows (UTC first: it is not always listed). */
function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** A concurrency rule cannot be a candidate (its lease would outlive a denied request). */
const algorithmsFor = (candidate: boolean) =>
  (Object.keys(ALGORITHM_LABELS) as Algorithm[]).filter((a) => !(candidate && a === 'CONCURRENCY'));

/** One rule's value field: a number, or a duration with its unit. */
function ParamField({
  form,
  path,
  rule,
  spec,
}: {
  form: UseFormReturnType<PolicyDraft>;
  path: string;
  rule: RuleDraft;
  spec: ParamSpec;
}) {
  const field = `${path}.${spec.name}`;
  const value = rule[spec.name];
  const optional = spec.name === 'burst';
  if (typeof value === 'object') {
    return (
      <DurationInput
        label={spec.label}
        required
        value={value}
        error={form.errors[field] as string | undefined}
        onChange={(next) => {
          form.setFieldValue(field, next);
          form.clearFieldError(field);
        }}
      />
    );
  }
  return (
    <NumberInput
      label={spec.label}
      description={optional ? 'Empty: the limit' : undefined}
      required={!optional}
      allowDecimal={!spec.integer}
      allowNegative={false}
      clampBehavior="none"
      {...form.getInputProps(field)}
      value={value}
    />
  );
}

/**
 * One rule of the policy: its name, algorithm and that algorithm's values (a fixed window's a
 * length or a calendar day or month in a time zone), its plain reading as it is typed, and for a
 * template what tenants may change.
 */
export function RuleFields({
  form,
  list,
  index,
  template,
  onRemove,
}: {
  form: UseFormReturnType<PolicyDraft>;
  list: 'rules' | 'candidateRules';
  index: number;
  template: boolean;
  onRemove: () => void;
}) {
  const candidate = list === 'candidateRules';
  const path = `${list}.${index}`;
  const rule = form.values[list][index];
  const zones = useMemo(timeZones, []);
  if (!rule) return null;
  const legend = `${candidate ? 'Candidate rule' : 'Rule'} ${index + 1}`;
  const reading = ruleReading(readableRule(rule));

  return (
    <Fieldset legend={legend}>
      <Stack gap="sm">
        <Group align="flex-start" grow preventGrowOverflow={false}>
          <TextInput
            label="Name"
            description="Names its counters"
            required
            styles={MONOSPACE}
            {...form.getInputProps(`${path}.name`)}
          />
          <NativeSelect
            label="Algorithm"
            data={algorithmsFor(candidate).map((a) => ({ value: a, label: ALGORITHM_LABELS[a] }))}
            {...form.getInputProps(`${path}.algorithm`)}
            onChange={(event) =>
              form.setFieldValue(path, withAlgorithm(rule, event.currentTarget.value as Algorithm))
            }
          />
          {candidate && (
            <NativeSelect
              label="Proposes"
              description="Applying the candidates puts it there"
              data={[
                { value: '', label: 'a new rule' },
                ...form.values.rules
                  .filter((live) => live.name.trim())
                  .map((live) => ({ value: live.name, label: `new values for ${live.name}` })),
              ]}
              {...form.getInputProps(`${path}.replaces`)}
            />
          )}
        </Group>
        {rule.algorithm === 'FIXED_WINDOW' && (
          <Radio.Group
            label="Window"
            value={rule.calendar.on ? 'calendar' : 'length'}
            onChange={(value) => form.setFieldValue(`${path}.calendar.on`, value === 'calendar')}
          >
            <Group mt={4}>
              <Radio value="length" label="A length of time" />
              <Radio value="calendar" label="A calendar day or month, in a time zone" />
            </Group>
          </Radio.Group>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {ruleParams(rule).map((spec) => (
            <ParamField key={spec.name} form={form} path={path} rule={rule} spec={spec} />
          ))}
          {rule.algorithm === 'FIXED_WINDOW' && rule.calendar.on && (
            <>
              <NativeSelect
                label="Calendar unit"
                data={[
                  { value: 'DAY', label: 'day' },
                  { value: 'MONTH', label: 'month' },
                ]}
                {...form.getInputProps(`${path}.calendar.unit`)}
              />
              <Select
                label="Time zone"
                required
                searchable
                data={zones}
                limit={50}
                allowDeselect={false}
                {...form.getInputProps(`${path}.calendar.timeZone`)}
              />
            </>
          )}
        </SimpleGrid>
        <Text size="sm" aria-live="polite" c={reading ? undefined : 'dimmed'}>
          {reading ? (
            <>
              <Text span size="sm" c="dimmed">
                Reads:{' '}
              </Text>
              {reading}
            </>
          ) : (
            'Fill in its values to read the rule.'
          )}
        </Text>
        {template && !candidate && <TenantBoundsFields form={form} path={path} rule={rule} />}
        <Group justify="flex-end">
          <Button variant="subtle" color="red" size="xs" onClick={onRemove}>
            Remove {legend.toLowerCase()}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
