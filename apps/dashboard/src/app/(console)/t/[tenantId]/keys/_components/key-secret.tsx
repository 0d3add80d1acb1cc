'use client';

import { Code, Stack, Tabs, Text } from '@mantine/core';
import { CopyableCode, OneTimeSecret } from '@/components/one-time-secret';
import { curlSnippet, examplePolicy, sdkSnippet } from './snippets';

/**
 * A new secret (created or rotated), shown once, with a first check to paste: curl and the SDK.
 * The data plane's URL is left to the reader (`$SLUICE_URL`): the dashboard does not know the
 * address its users reach it by.
 */
export function KeySecret({
  secret,
  keyPolicies,
  tenantPolicies,
}: {
  secret: string;
  keyPolicies: string[];
  tenantPolicies: string[];
}) {
  const policy = examplePolicy(keyPolicies, tenantPolicies);
  return (
    <OneTimeSecret secret={secret} label="the secret">
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          Try it
        </Text>
        <Text size="sm" c="dimmed">
          Set <Code>SLUICE_URL</Code> to your data plane&apos;s address, e.g.{' '}
          <Code>http://127.0.0.1:4100</Code> in development, then check a first request against{' '}
          <Code>{policy}</Code>.
        </Text>
        <Tabs defaultValue="curl" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="curl">curl</Tabs.Tab>
            <Tabs.Tab value="sdk">Node.js SDK</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="curl" pt="xs">
            <CopyableCode value={curlSnippet(secret, policy)} label="the curl command" block />
          </Tabs.Panel>
          <Tabs.Panel value="sdk" pt="xs">
            <Stack gap={6}>
              <Text size="sm" c="dimmed">
                <Code>npm install @sluice/sdk</Code>, with <Code>SLUICE_API_KEY</Code> set to the
                secret.
              </Text>
              <CopyableCode value={sdkSnippet(policy)} label="the SDK example" block />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </OneTimeSecret>
  );
}
