'use client';

import { Button, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import Link from 'next/link';
import { OutcomeBadge, ResponseHeaders, RuleFiguresTable } from '@/components/decision-figures';
import { formatNumber, formatTimestamp } from '@/lib/format';
import type { LogEntry } from './decision-log-table';
import { reasonExplained } from '@/lib/reasons';

/**
 * One decision, explained: why (its reason and the rule that denied), each live rule's figures as
 * the caller was told, the headers it received, and what to do about it (an override for this
 * identifier, for those who may write).
 */
export function EntryDrawer({
  entry,
  policy,
  overrideHref,
  identifierHref,
  onClose,
}: {
  entry: LogEntry | undefined;
  policy: string;
  /** Where an override for the entry's identifier is created; absent for readers. */
  overrideHref: ((identifier: string) => string) | undefined;
  /** The identifier's page; absent where the drawer is opened from it. */
  identifierHref?: ((identifier: string) => string) | undefined;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={entry !== undefined}
      onClose={onClose}
      position="right"
      size="lg"
      title={entry ? `Decision for ${entry.identifier}` : ''}
    >
      {entry && (
        <Stack gap="md">
          <Group gap="xs">
            <OutcomeBadge allowed={entry.outcome === 'ALLOWED'} shadow={entry.shadowDenied} />
            <Text size="sm">
              {formatTimestamp(entry.at)} · {policy} · cost {formatNumber(entry.cost)}
            </Text>
          </Group>
          <Text size="sm">
            {reasonExplained(entry.reason)}
            {entry.deniedBy && ` The rule that denied: ${entry.deniedBy}.`}
            {entry.candidatesDeniedBy.length > 0 &&
              ` Candidate rules that would have denied: ${entry.candidatesDeniedBy.join(', ')}.`}
            {entry.overrideId && ` An override applied (${entry.overrideId}).`}
          </Text>
          {(overrideHref ?? identifierHref) && (
            <Group gap="sm">
              {overrideHref && (
                <Button component={Link} href={overrideHref(entry.identifier)}>
                  Create an override for {entry.identifier}
                </Button>
              )}
              {identifierHref && (
                <Button component={Link} variant="default" href={identifierHref(entry.identifier)}>
                  Open {entry.identifier}&apos;s page
                </Button>
              )}
            </Group>
          )}
          <section aria-labelledby="entry-rules">
            <Title order={3} size="h5" id="entry-rules" mb="xs">
              Rules after the check
            </Title>
            {entry.rules.length === 0 ? (
              <Text size="sm" c="dimmed">
                Decided without Redis: no rule was read.
              </Text>
            ) : (
              <RuleFiguresTable rules={entry.rules} />
            )}
          </section>
          <section aria-labelledby="entry-headers">
            <Title order={3} size="h5" id="entry-headers" mb="xs">
              Headers the caller received
            </Title>
            {entry.headers.length === 0 ? (
              <Text size="sm" c="dimmed">
                Not kept for this entry.
              </Text>
            ) : (
              <ResponseHeaders headers={entry.headers} />
            )}
          </section>
        </Stack>
      )}
    </Drawer>
  );
}
