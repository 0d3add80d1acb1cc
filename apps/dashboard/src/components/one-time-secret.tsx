'use client';

import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A text with a copy button: a secret, a command. `label` names what is copied, for the button's
 * accessible name ("Copy the secret").
 */
export function CopyableCode({
  value,
  label,
  block = false,
}: {
  value: string;
  label: string;
  block?: boolean;
}) {
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Code
        block={block}
        // a command keeps its lines (scrolling if need be); a secret wraps anywhere
        style={
          block
            ? { flex: 1, minWidth: 0, whiteSpace: 'pre', overflowX: 'auto' }
            : { flex: 1, minWidth: 0, overflowWrap: 'anywhere' }
        }
      >
        {value}
      </Code>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Button
            variant={copied ? 'light' : 'default'}
            color={copied ? 'teal' : undefined}
            size="xs"
            miw={72}
            onClick={copy}
            aria-label={copied ? 'Copied' : `Copy ${label}`}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * A secret the API hands out once (an API key's, a webhook's signing secret): the value with a
 * copy button and the warning that it will not be shown again. It lives only in the component's
 * state: closing the dialog, or reloading, loses it for good.
 */
export function OneTimeSecret({
  secret,
  label,
  children,
}: {
  secret: string;
  label: string;
  children?: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <Alert color="orange" title="Copy it now: it will not be shown again" role="status">
        Sluice cannot show it to anyone later, you included. If it is lost, rotate it to get a new
        one.
      </Alert>
      <div>
        <Text size="sm" fw={600} mb={4}>
          {label[0]?.toUpperCase()}
          {label.slice(1)}
        </Text>
        <CopyableCode value={secret} label={label} />
      </div>
      {children}
    </Stack>
  );
}
