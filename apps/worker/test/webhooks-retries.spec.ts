import { endpointKeys, readQueueStats, replayDeadLetters } from '@sluice/webhooks';
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
  world = await webhookWorld('worker-retries');
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

const rowsOf = (eventId: string) =>
  world.prisma.webhookDelivery.findMany({ where: { eventId }, orderBy: { attempt: 'asc' } });

describe('webhook retries', () => {
  it('retries a failed delivery with exponential backoff, the same event id each time', async () => {
    const sink = await receiver([{ status: 500 }, { status: 503 }, { status: 200 }]);
    const { endpoint } = await world.createEndpoint(sink.url, { maxAttempts: 5 });
    // backoff base 300 ms: retry n waits 300 × 2^(n-1) ms, at least half of it
    await world.startWorker({ WORKER_WEBHOOK_BACKOFF_BASE_MS: '300' });

    const [eventId] = await world.enqueue(endpoint, 1);
    await until('the third attempt is recorded', async () => (await rowsOf(eventId!)).length === 3);

    const arrivals = sink.arrivals;
    expect(arrivals.map((arrival) => arrival.eventId)).toEqual([eventId, eventId, eventId]);
    expect(arrivals[1]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(150);
    expect(arrivals[2]!.at - arrivals[1]!.at).toBeGreaterThanOrEqual(300);
    expect(
      (await rowsOf(eventId!)).map((row) => [row.attempt, row.status, row.responseCode]),
    ).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 503],
      [3, 'delivered', 200],
    ]);
    const [stats] = await readQueueStats(world.redis.redis, world.redis.prefix, endpoint.tenantId, [
      endpoint.id,
    ]);
    expect(stats).toMatchObject({ depth: 0, delivered: 1, failed: 2, dead: 0 });
  });

  it('honours a receiver’s 429 Retry-After: nothing goes to that endpoint before it passes', async () => {
    const sink = await receiver([
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 200 },
    ]);
    const { endpoint } = await world.createEndpoint(sink.url, { leakRatePerSec: 10 });
    // one send at a time: the others cannot be on the wire before the 429 is answered, however
    // late a loaded machine picks the first up (sends already in flight cannot be called back)
    await world.startWorker({ WORKER_WEBHOOK_MAX_IN_FLIGHT: '1' });

    const ids = await world.enqueue(endpoint, 3);
    await until('four arrivals', () => sink.arrivals.length >= 4);
    await until('every event delivered', async () => {
      return (await world.prisma.webhookDelivery.count({ where: { status: 'delivered' } })) === 3;
    });

    const [first, ...rest] = sink.arrivals;
    expect(first!.eventId).toBe(ids[0]);
    // the other two were due 100 and 200 ms later, and waited for the pause too
    for (const arrival of rest) expect(arrival.at - first!.at).toBeGreaterThanOrEqual(2000);
    expect(rest.map((arrival) => arrival.eventId).sort()).toEqual([...ids].sort());
    expect((await rowsOf(ids[0]!)).map((row) => [row.status, row.responseCode])).toEqual([
      ['failed', 429],
      ['delivered', 200],
    ]);
  });

  it('moves an event to the dead letters after its last attempt, and a replay delivers it', async () => {
    const sink = await receiver([{ status: 500 }]);
    const { endpoint } = await world.createEndpoint(sink.url, { maxAttempts: 2 });
    await world.startWorker();
    const keys = endpointKeys(world.redis.prefix, endpoint.tenantId, endpoint.id);

    const [eventId] = await world.enqueue(endpoint, 1);
    await until(
      'the event is dead',
      async () => (await world.redis.redis.zscore(keys.dead, eventId!)) !== null,
    );

    // the dead letter is written by the job's last attempt, just before BullMQ fails the job
    await until(
      'the job is failed',
      async () => (await (await world.queue.getJob(eventId!))!.getState()) === 'failed',
    );
    expect((await rowsOf(eventId!)).map((row) => [row.attempt, row.status])).toEqual([
      [1, 'failed'],
      [2, 'dead'],
    ]);
    expect(await world.redis.redis.zcard(keys.pending)).toBe(0);

    await sink.answerWith([{ status: 200 }]);
    // another endpoint's replay does not touch it
    expect(
      await replayDeadLetters(
        world.redis.redis,
        world.queue,
        world.redis.prefix,
        endpoint.tenantId,
        'wh_other',
        { eventIds: [eventId!] },
      ),
    ).toEqual({ replayed: [], missing: [eventId], remaining: 0 });
    const replay = await replayDeadLetters(
      world.redis.redis,
      world.queue,
      world.redis.prefix,
      endpoint.tenantId,
      endpoint.id,
    );
    expect(replay).toEqual({ replayed: [eventId], missing: [], remaining: 0 });
    await until('the replay is delivered', async () => (await rowsOf(eventId!)).length === 3);

    expect(sink.arrivals.map((arrival) => arrival.eventId)).toEqual([eventId, eventId, eventId]);
    expect((await rowsOf(eventId!)).map((row) => [row.attempt, row.status])).toEqual([
      [1, 'failed'],
      [2, 'dead'],
      [3, 'delivered'],
    ]);
    const [stats] = await readQueueStats(world.redis.redis, world.redis.prefix, endpoint.tenantId, [
      endpoint.id,
    ]);
    expect(stats).toMatchObject({ depth: 0, delivered: 1, dead: 0 });
  });
});
