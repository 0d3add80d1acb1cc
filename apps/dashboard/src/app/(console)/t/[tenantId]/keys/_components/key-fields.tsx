'use client';

import { Checkbox, Group, Stack, TagsInput, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import dayjs from 'dayjs';
import type { KeyFormValues } from './key-form';

const LOCAL = 'YYYY-MM-DD HH:mm:ss';

/** Quick expiries offered by the picker. */
function expiryPresets() {
  const at = (amount: number, unit: 'day' | 'year') => dayjs().add(amount, unit).format(LOCAL);
  return [
    { value: at(30, 'day'), label: 'In 30 days' },
    { value: at(90, 'day'), label: 'In 90 days' },
    { value: at(1, 'year'), label: 'In a year' },
  ];
}

/** The settings of a key, the same in the create and edit dialogs. */
export function KeyFields({
  form,
  policyChoices,
}: {
  form: UseFormReturnType<KeyFormValues>;
  policyChoices: string[];
}) {
  return (
    <Stack>
      <TextInput
        label="Name"
        description="Where the key is used, e.g. checkout-api production"
        required
        data-autofocus
        {...form.getInputProps('name')}
      />
      <Checkbox.Group
        label="Scopes"
        description="Check: check, settle, release and inspect limits. Admin: also reset an identifier."
        required
        {...form.getInputProps('scopes')}
      >
        <Group mt={6}>
          <Checkbox value="CHECK" label="Check" />
          <Checkbox value="ADMIN" label="Admin" />
        </Group>
      </Checkbox.Group>
      <TagsInput
        label="Policies it may use"
        description="Empty: every policy. Names that do not exist yet are allowed."
        placeholder="Every policy"
        data={policyChoices}
        clearable
        {...form.getInputProps('policyNames')}
      />
      <DateTimePicker
        label="Expires"
        description="Refused by the data plane from then on. Empty: never expires."
        clearable
        minDate={dayjs().format(LOCAL)}
        presets={expiryPresets()}
        valueFormat="YYYY-MM-DD HH:mm"
        {...form.getInputProps('expiresAt')}
      />
    </Stack>
  );
}
