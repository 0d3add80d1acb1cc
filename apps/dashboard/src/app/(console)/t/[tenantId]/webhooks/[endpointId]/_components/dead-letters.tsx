'use client';

import { Button, Group, Select, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { WebhookEndpointQuery } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { formatNumber, formatTimestamp, formatWait } from '@/lib/format';
import { ReplayDeadLetterDocument, ReplayDeadLettersDocument } from '../../_components/documents';

type Queue = NonNullable<WebhookEndpointQuery['webhookEndpoint']>['queue'];

/** Dead letters one call replays at most (the API's batch). */
const REPLAY_BATCH = 1000;

const SINCE_CHOICES = [
  { value: '300000', label: 'the last 5 minutes' },
  { value: '3600000', label: 'the last hour' },
  { value: '86400000', label: 'the last 24 hours' },
];

/**
 * The endpoint's dead letters, newest first, each replayable, or all at once, or those that died
 * since a time. Each replay says beforehand how long it takes at the endpoint's rate: after the
 * events already waiting, one more event every 1 ÷ rate seconds.
 */
export function DeadLetters({
  endpointId,
  queue,
  leakRatePerSec,
  canWrite,
}: {
  endpointId: string;
  queue: Queue;
  leakRatePerSec: number;
  canWrite: boolean;
}) {
  const [, replayOne] = useMutation(ReplayDeadLetterDocument);
  const [replayingMany, replayMany] = useMutation(ReplayDeadLettersDocument);
  const [since, setSince] = useState<string | null>(SINCE_CHOICES[1]!.value);
  const eta = (events: number) =>
    formatWait(queue.timeToDrainMs + Math.ceil((events / leakRatePerSec) * 1000));
  const sinceTime = since === null ? undefined : new Date(Date.now() - Number(since));
  // the dead letters listed are the newest: those since a time are at least the ones shown
  const shownSince = sinceTime
    ? queue.deadLetters.filter((d) => new Date(d.diedAt) >= sinceTime).length
    : 0;
  const told = (outcome: { replayed: readonly string[]; remaining: number }) =>
    notifications.show({
      message:
        outcome.replayed.length === 0
          ? 'Nothing to replay: no dead letter matched.'
          : `${formatNumber(outcome.replayed.length)} sent back to the queue; delivered in about ${eta(outcome.replayed.length)} if the receiver answers.${outcome.remaining > 0 ? ` ${formatNumber(outcome.remaining)} dead letters are left.` : ''}`,
    });
  const failed = (error: Parameters<typeof apiError>[0]) =>
    notifications.show({ color: 'red', message: apiError(error).message });

  /** The oldest 1,000, or those that died at or after `since`. */
  const replayAll = async (since: Date | undefined) => {
    const result = await replayMany({ endpointId, since: since?.toISOString() });
    if (result.error) failed(result.error);
    else if (result.data) told(result.data.replayWebhookDeadLetters);
  };

  if (queue.deadLetters.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No dead letters: every event was delivered or is still being tried.
      </Text>
    );
  }
  const all = Math.min(queue.dead, REPLAY_BATCH);
  return (
    <>
      {canWrite && (
        <Group gap="sm" mb="sm" align="flex-end">
          <Button loading={replayingMany.fetching} onClick={() => void replayAll(undefined)}>
            Replay all {formatNumber(all)} (about {eta(all)})
          </Button>
          <Select
            label="Or those that died in"
            data={SINCE_CHOICES}
            value={since}
            onChange={setSince}
            allowDeselect={false}
            w={200}
          />
          <Button
            variant="default"
            loading={replayingMany.fetching}
            onClick={() => void replayAll(sinceTime)}
          >
            Replay {queue.dead > queue.deadLetters.length ? 'at least ' : ''}
            {formatNumber(shownSince)} (about {eta(shownSince)})
          </Button>
        </Group>
      )}
      <Table.ScrollContainer minWidth={700}>
        <Table verticalSpacing={4} fz="sm" aria-label="Dead letters">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Died</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th>Last error</Table.Th>
              {canWrite && <Table.Th ta="right">Replay</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {queue.deadLetters.map((letter) => (
              <Table.Tr key={letter.eventId}>
                <Table.Td>{formatTimestamp(letter.diedAt)}</Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {letter.eventId}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {letter.eventType ?? 'type unknown'}
                  </Text>
                </Table.Td>
                <Table.Td>{letter.lastError ?? '—'}</Table.Td>
                {canWrite && (
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Replay ${letter.eventId}`}
                      onClick={async () => {
                        const result = await replayOne({ endpointId, eventId: letter.eventId });
                        if (result.error) failed(result.error);
                        else if (result.data) told(result.data.replayWebhookDeadLetter);
                      }}
                    >
                      Replay (about {eta(1)})
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
