'use client';

import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { PlaygroundMode } from '@/generated/gql/graphql';
import type { CheckValues } from '../_hooks/use-playground';

const MAX_CHECKS = 100;

/**
 * What to fire: policy, identifier (scratch unless a real one is chosen, with a warning), cost,
 * how many checks and whether one after another or all at once; or a peek, which spends nothing.
 * Readers may only peek.
 */
export function CheckForm({
  policies,
  policy,
  identifier,
  onPolicyChange,
  onIdentifierChange,
  canFire,
  busy,
  errors,
  onFire,
  onPeek,
}: {
  policies: readonly string[];
  policy: string | undefined;
  identifier: string;
  onPolicyChange: (policy: string) => void;
  onIdentifierChange: (identifier: string) => void;
  canFire: boolean;
  busy: boolean;
  errors: Record<string, string>;
  onFire: (values: CheckValues) => void;
  onPeek: (values: CheckValues) => void;
}) {
  const [realIdentifier, setRealIdentifier] = useState(false);
  const [cost, setCost] = useState<number | string>(1);
  const [count, setCount] = useState<number | string>(1);
  const [mode, setMode] = useState<PlaygroundMode>('SEQUENTIAL');
  const values = (): CheckValues | undefined =>
    policy === undefined
      ? undefined
      : {
          policy,
          identifier,
          realIdentifier,
          cost: Number(cost),
          count: Number(count),
          mode,
        };
  const submit = (action: (values: CheckValues) => void) => {
    const current = values();
    if (current) action(current);
  };
  const n = Number(count) || 0;
  const checks = `${n} ${n === 1 ? 'check' : 'checks'}`;

  return (
    <Card withBorder padding="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit(onFire);
        }}
      >
        <Stack gap="md">
          <Group align="flex-start" grow>
            <Select
              label="Policy"
              data={[...policies]}
              value={policy ?? null}
              onChange={(value) => value && onPolicyChange(value)}
              allowDeselect={false}
              error={errors['policy']}
            />
            <TextInput
              label="Identifier"
              description={
                realIdentifier
                  ? 'A real caller: its own quota.'
                  : `Checked as playground:${identifier}`
              }
              value={identifier}
              onChange={(event) => onIdentifierChange(event.currentTarget.value)}
              error={errors['identifier']}
            />
            <NumberInput
              label="Cost of each check"
              description="Units charged, e.g. LLM tokens"
              min={0}
              max={1_000_000_000}
              allowDecimal={false}
              value={cost}
              onChange={setCost}
              error={errors['cost']}
            />
            <NumberInput
              label="Checks"
              description={`1 to ${MAX_CHECKS}`}
              min={1}
              max={MAX_CHECKS}
              allowDecimal={false}
              value={count}
              onChange={setCount}
              error={errors['count']}
            />
          </Group>
          <Group gap="lg" align="center">
            <SegmentedControl
              aria-label="Send them"
              value={mode}
              onChange={(value) => setMode(value as PlaygroundMode)}
              data={[
                { value: 'SEQUENTIAL', label: 'One after another' },
                { value: 'BURST', label: 'All at once (burst)' },
              ]}
            />
            <Switch
              label="Spend a real identifier's quota"
              checked={realIdentifier}
              onChange={(event) => setRealIdentifier(event.currentTarget.checked)}
            />
            <Group gap="sm" ml="auto">
              <Button type="submit" loading={busy} disabled={!canFire || policy === undefined}>
                Fire {checks}
              </Button>
              <Button
                variant="default"
                disabled={busy || policy === undefined}
                onClick={() => submit(onPeek)}
              >
                Peek
              </Button>
            </Group>
          </Group>
          {realIdentifier && (
            <Alert color="orange" title="These checks spend real quota">
              {identifier || 'This identifier'}&apos;s own callers will find less room, exactly as
              if it had made the calls. Each run is written to the audit log.
            </Alert>
          )}
          {!canFire && (
            <Text size="sm" c="dimmed">
              Firing checks counts in the tenant&apos;s usage, so it needs the admin role. You can
              peek: it reads an identifier&apos;s state and spends nothing.
            </Text>
          )}
        </Stack>
      </form>
    </Card>
  );
}
