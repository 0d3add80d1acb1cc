'use client';

import { Checkbox, Group, NumberInput, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ParamSpec } from '@/lib/rules';
import { DurationInput } from './duration-input';
import {
  blankBound,
  ruleParams,
  type PolicyDraft,
  type RuleDraft,
  type ValueDraft,
} from './policy-draft';

/** A bound's min or max: in the parameter's own terms (a duration with its unit). */
function BoundValue({
  form,
  field,
  label,
  spec,
  value,
}: {
  form: UseFormReturnType<PolicyDraft>;
  field: string;
  label: string;
  spec: ParamSpec;
  value: ValueDraft;
}) {
  if (typeof value === 'object') {
    return (
      <DurationInput
        label={label}
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
      label={label}
      allowDecimal={!spec.integer}
      allowNegative={false}
      clampBehavior="none"
      placeholder="No bound"
      {...form.getInputProps(field)}
      value={value}
    />
  );
}

/**
 * A template rule's parameters tenants may change (`tenantBounds`), each within an optional
 * range; the rest stay the plan's.
 */
export function TenantBoundsFields({
  form,
  path,
  rule,
}: {
  form: UseFormReturnType<PolicyDraft>;
  path: string;
  rule: RuleDraft;
}) {
  const setBounds = (bounds: RuleDraft['tenantBounds']) =>
    form.setFieldValue(`${path}.tenantBounds`, bounds);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        What tenants may change
      </Text>
      {ruleParams(rule).map((spec) => {
        const index = rule.tenantBounds.findIndex((b) => b.param === spec.name);
        const bound = rule.tenantBounds[index];
        const name = spec.label.toLowerCase();
        const field = `${path}.tenantBounds.${index}`;
        return (
          <Group key={spec.name} align="flex-start" wrap="nowrap">
            <Checkbox
              mt={bound ? 30 : 0}
              w={200}
              label={`Tenants may change the ${name}`}
              checked={Boolean(bound)}
              error={bound ? (form.errors[`${field}.param`] as string | undefined) : undefined}
              onChange={(event) =>
                setBounds(
                  event.currentTarget.checked
                    ? [...rule.tenantBounds, blankBound(rule, spec.name)]
                    : rule.tenantBounds.filter((b) => b.param !== spec.name),
                )
              }
            />
            {bound && (
              <>
                <BoundValue
                  form={form}
                  field={`${field}.min`}
                  label={`Lowest ${name}`}
                  spec={spec}
                  value={bound.min}
                />
                <BoundValue
                  form={form}
                  field={`${field}.max`}
                  label={`Highest ${name}`}
                  spec={spec}
                  value={bound.max}
                />
              </>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
