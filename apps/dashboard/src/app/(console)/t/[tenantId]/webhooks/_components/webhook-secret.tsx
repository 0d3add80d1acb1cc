'use client';

import { Code, Text } from '@mantine/core';
import { OneTimeSecret } from '@/components/one-time-secret';

/** A new signing secret (created or rotated), shown once, and what a receiver does with it. */
export function WebhookSecret({ secret }: { secret: string }) {
  return (
    <OneTimeSecret secret={secret} label="the signing secret">
      <Text size="sm" c="dimmed">
        Each delivery is signed with it: the receiver checks the <Code>Sluice-Signature</Code>{' '}
        header, e.g. with <Code>verifyWebhookSignature</Code> from <Code>@sluice/sdk</Code>, and
        ignores a repeated <Code>Sluice-Event-Id</Code>.
      </Text>
    </OneTimeSecret>
  );
}
