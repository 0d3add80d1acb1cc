'use client';

import { Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { formatNumber } from '@/lib/format';
import { drainSeconds, type EndpointFormValues, LIMITS } from './endpoint-form';

/** An endpoint's settings, the same in the create and edit dialogs. */
export function EndpointFields({ form }: { form: UseFormReturnType<EndpointFormValues> }) {
  const { queueCapacity, leakRatePerSec } = form.values;
  const drain =
    typeof queueCapacity === 'number' && typeof leakRatePerSec === 'number' && leakRatePerSec > 0
      ? drainSeconds(queueCapacity, leakRatePerSec)
      : undefined;
  return (
    <Stack>
      <TextInput
        label="Name"
        description="Lowercase letters, digits, _ and -; unique in the tenant. Events may name the endpoint by it."
        required
        data-autofocus
        {...form.getInputProps('name')}
      />
      <TextInput
        label="URL"
        description="Where events are POSTed. It must resolve to public addresses."
        placeholder="https://example.com/hooks/sluice"
        required
        {...form.getInputProps('url')}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NumberInput
          label="Leak rate"
          description="Deliveries per second"
          required
          min={LIMITS.minLeakRatePerSec}
          max={LIMITS.maxLeakRatePerSec}
          decimalScale={2}
          step={1}
          {...form.getInputProps('leakRatePerSec')}
        />
        <NumberInput
          label="Queue capacity"
          description="Events that may wait"
          required
          min={1}
          max={LIMITS.maxQueueCapacity}
          allowDecimal={false}
          thousandSeparator=","
          {...form.getInputProps('queueCapacity')}
        />
        <NumberInput
          label="Max attempts"
          description="Then a dead letter"
          required
          min={1}
          max={LIMITS.maxAttempts}
          allowDecimal={false}
          {...form.getInputProps('maxAttempts')}
        />
      </SimpleGrid>
      {drain !== undefined && (
        <Text size="sm" c="dimmed">
          A full queue drains in about {formatNumber(Math.ceil(drain))} s; more events are refused
          (429) until there is room.
        </Text>
      )}
      <Group>
        <Switch
          label="Enabled"
          description="A disabled endpoint refuses new events and holds those queued."
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
      </Group>
    </Stack>
  );
}
