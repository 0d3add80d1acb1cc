'use client';

import { Fieldset, NumberInput, SimpleGrid, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Algorithm } from '@/generated/gql/graphql';
import { ALGORITHM_LABELS, formatParam, paramUnit } from '@/lib/rules';
import { boundsHint, type OfferedParam, type RuleValues } from './override-rules';

export interface OfferedRule {
  name: string;
  algorithm: Algorithm;
  params: OfferedParam[];
}

/**
 * One fieldset per rule of the policy, one input per parameter the override may set: empty keeps
 * the policy's value (shown as the placeholder), and the plan's bounds are hints, not limits the
 * form enforces (the API refuses a value outside them, on its field).
 */
export function OverrideRuleFields<V extends { rules: RuleValues }>({
  form,
  rules,
}: {
  form: UseFormReturnType<V>;
  rules: readonly OfferedRule[];
}) {
  return rules.map((rule) => (
    <Fieldset key={rule.name} legend={`Rule ${rule.name} · ${ALGORITHM_LABELS[rule.algorithm]}`}>
      {rule.params.length === 0 ? (
        <Text size="sm" c="dimmed">
          The plan lets you change nothing of this rule.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          {rule.params.map((param) => {
            const current =
              param.current === null
                ? 'The policy does not set it.'
                : `The policy's value: ${formatParam(param.name, param.current)}.`;
            const hint = boundsHint(param);
            return (
              <NumberInput
                key={param.name}
                label={paramUnit(param.name) === 'duration' ? `${param.label} (ms)` : param.label}
                description={hint ? `${current} ${hint}` : current}
                placeholder={param.current === null ? 'Not set' : String(param.current)}
                allowDecimal={!param.integer}
                allowNegative={false}
                clampBehavior="none"
                {...form.getInputProps(`rules.${rule.name}.${param.name}`)}
                // a parameter left empty is '' (never undefined), so the input stays controlled
                value={form.values.rules[rule.name]?.[param.name] ?? ''}
              />
            );
          })}
        </SimpleGrid>
      )}
    </Fieldset>
  ));
}
