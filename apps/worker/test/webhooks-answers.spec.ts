import { endpointKeys } from '@sluice/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startReceiver,
  until,
  webhookWorld,
  type Answer,
  type Receiver,
  type WebhookWorld,
} from './webhooks-support';

let world: WebhookWorld;
const receivers: Receiver[] = [];

beforeEach(async () => {
  world = await webhookWorld('worker-answers');
});
afterEach(async () => {
  await world?.close();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(answers: Answer[]): Promise<Receiver> {
  const started = await startReceiver(answers);
  receivers.push(started);
  return started;
}

/** Attempts that ended an event's run: delivered, or dead. */
const lastAttempts = () =>
  world.prisma.webhookDelivery.count({ where: { status: { in: ['delivered', 'dead'] } } });

describe('webhook answers that never end', () => {
  it('times out an answer that trickles, closes its connection, retries, and keeps within the endpoint’s connections', async () => {
    // headers at once, then a byte every 200 ms, never ending
    const trickling = await receiver([{ status: 200, trickleMs: 200 }]);
    const { endpoint } = await world.createEndpoint(trickling.url, {
      leakRatePerSec: 20,
      maxAttempts: 2,
    });
    // an attempt's timeout is 1 s (workerEnv)
    await world.startWorker({ WORKER_WEBHOOK_MAX_IN_FLIGHT: '2' });

    const ids = await world.enqueue(endpoint, 6);
    const keys = endpointKeys(world.redis.prefix, endpoint.tenantId, endpoint.id);
    // the attempt's row is written before its dead letter: wait for both
    await until(
      'every event has ended its run',
      async () => (await lastAttempts()) === 6 && (await world.redis.redis.zcard(keys.dead)) === 6,
    );

    const rows = await world.prisma.webhookDelivery.findMany({
      orderBy: [{ eventId: 'asc' }, { attempt: 'asc' }],
    });
    // each event: a failed attempt, retried, then dead
    expect(rows.map((row) => [row.eventId, row.attempt, row.status])).toEqual(
      [...ids].sort().flatMap((id) => [
        [id, 1, 'failed'],
        [id, 2, 'dead'],
      ]),
    );
    for (const row of rows) {
      expect(row.responseCode).toBe(200);
      expect(row.error).toMatch(/not finished within 1000 ms/);
    }
    // every attempt's connection was closed by the worker, none held on
    await until(
      'every connection is closed',
      () => trickling.connections.open === 0 && trickling.ends.length === 12,
    );
    expect(trickling.ends.every((end) => !end.finished)).toBe(true);
    expect(trickling.connections.maxOpen).toBeLessThanOrEqual(2);
  });

  it('delivers to a receiver answering a huge body, reading only the start of it', async () => {
    const huge = await receiver([{ status: 200, bodyBytes: 256 * 1024 * 1024 }]);
    const { endpoint } = await world.createEndpoint(huge.url);
    await world.startWorker();

    const [eventId] = await world.enqueue(endpoint, 1);
    await until('the event is delivered', async () => (await lastAttempts()) === 1);

    const rows = await world.prisma.webhookDelivery.findMany();
    expect(rows.map((row) => [row.eventId, row.status, row.responseCode])).toEqual([
      [eventId, 'delivered', 200],
    ]);
    await until(
      'the connection is closed',
      () => huge.connections.open === 0 && huge.ends.length > 0,
    );
    expect(huge.ends).toEqual([expect.objectContaining({ finished: false })]);
    // at most the cap plus the loopback sockets' buffers (up to 36 MiB here) left the receiver
    expect(huge.ends[0]!.bodyBytes).toBeLessThan(64 * 1024 * 1024);
  });
});
