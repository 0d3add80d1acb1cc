'use client';

import { Button, Card, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';

export interface IdentifierTarget {
  policy: string;
  identifier: string;
  cost: number;
}

/** Which identifier, under which policy, and the cost its next check is asked about. */
export function IdentifierLookup({
  policies,
  target,
  onLookUp,
}: {
  policies: readonly string[];
  target: IdentifierTarget;
  onLookUp: (target: IdentifierTarget) => void;
}) {
  // a policy the tenant lacks (an old link) is not offered: the first one is
  const [policy, setPolicy] = useState(
    policies.includes(target.policy) ? target.policy : (policies[0] ?? ''),
  );
  const [identifier, setIdentifier] = useState(target.identifier);
  const [cost, setCost] = useState<number>(target.cost);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onLookUp({ policy, identifier: identifier.trim(), cost });
  };
  return (
    <Card withBorder component="form" onSubmit={submit} aria-label="Look up an identifier">
      <Group align="flex-end" gap="md">
        <Select
          label="Policy"
          data={[...policies]}
          value={policy}
          onChange={(value) => value && setPolicy(value)}
          allowDeselect={false}
          w={200}
        />
        <TextInput
          label="Identifier"
          description="As your services send it"
          value={identifier}
          onChange={(event) => setIdentifier(event.currentTarget.value)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          w={280}
        />
        <NumberInput
          label="Next check's cost"
          description="What the verdict is for"
          value={cost}
          onChange={(value) => setCost(typeof value === 'number' ? value : 0)}
          min={0}
          allowDecimal={false}
          w={160}
        />
        <Button type="submit" disabled={identifier.trim() === '' || policy === ''}>
          Look up
        </Button>
      </Group>
    </Card>
  );
}
