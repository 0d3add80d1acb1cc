'use client';

import { Group, Input, NativeSelect, NumberInput } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { DURATION_UNITS, type DurationDraft, type DurationUnit } from './duration';

/**
 * A duration as a number and a unit (ms … days), e.g. "5 minutes"; the API gets ms. Two fields
 * side by side under one label: a unit select inside the number's right section is not shown
 * by Mantine's NumberInput, which leaves a bare number whose unit nobody can see.
 */
export function DurationInput({
  label,
  description,
  value,
  onChange,
  error,
  required,
}: {
  label: string;
  description?: string | undefined;
  value: DurationDraft;
  onChange: (value: DurationDraft) => void;
  error?: string | undefined;
  required?: boolean;
}) {
  const id = useId();
  const describedBy = [description && `${id}-description`, error && `${id}-error`]
    .filter(Boolean)
    .join(' ');
  return (
    <Input.Wrapper
      id={id}
      label={label}
      description={description}
      required={required}
      error={error}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <NumberInput
          id={id}
          flex={1}
          miw={0}
          aria-describedby={describedBy || undefined}
          error={Boolean(error)}
          allowNegative={false}
          clampBehavior="none"
          value={value.amount}
          onChange={(amount) =>
            onChange({
              ...value,
              amount: typeof amount === 'number' ? amount : amount === '' ? '' : Number(amount),
            })
          }
        />
        <NativeSelect
          aria-label={`${label} unit`}
          w={116}
          data={DURATION_UNITS.map((unit) => ({ value: unit.value, label: unit.label }))}
          value={value.unit}
          onChange={(event) =>
            onChange({ ...value, unit: event.currentTarget.value as DurationUnit })
          }
        />
      </Group>
    </Input.Wrapper>
  );
}
