'use client';

import { NativeSelect, NumberInput } from '@mantine/core';
import { DURATION_UNITS, type DurationDraft, type DurationUnit } from './duration';

/** A duration as a number and a unit (ms … days), e.g. "5 minutes"; the API gets ms. */
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
  return (
    <NumberInput
      label={label}
      description={description}
      required={required}
      error={error}
      allowNegative={false}
      clampBehavior="none"
      value={value.amount}
      onChange={(amount) =>
        onChange({
          ...value,
          amount: typeof amount === 'number' ? amount : amount === '' ? '' : Number(amount),
        })
      }
      rightSectionWidth={104}
      rightSection={
        <NativeSelect
          aria-label={`${label} unit`}
          variant="unstyled"
          data={DURATION_UNITS.map((unit) => ({ value: unit.value, label: unit.label }))}
          value={value.unit}
          onChange={(event) =>
            onChange({ ...value, unit: event.currentTarget.value as DurationUnit })
          }
          w={100}
        />
      }
    />
  );
}
