import { verifyWebhookSignature } from '@sluice/sdk';
import { endpointKeys, readQueueStats, type QueueStats } from '@sluice/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fifoBreaks,
  fittedRate,
  startReceiver,
  until,
  webhookWorld,
  type Receiver,
  type WebhookWorld,
} from './webhooks-support';

let world: WebhookWorld;
const receivers: Receiver[] = [];

beforeEach(async () => {
  world = await webhookWorld('worker-hooks');
});
afterEach(async () => {
  // receivers first: their closed connections end the attempts still held (a hanging receiver),
  // so the worker's graceful close does not wait for their timeouts
  for (const receiver of receivers.splice(0)) await receiver.close();
  await world?.close();
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

/**
 * The fitted rate of these short runs never goes above the endpoint's 5/s by more than 6 % (a
 * burst or a double rate is far outside). Only that side is checked: the dispatch schedule spaces
 * the sends, so a loaded machine can only deliver late, which lowers the fitted rate (seen down to
 * 4.641/s with the whole suite on 2 cores), never raises it. How close to the rate a quiet machine
 * delivers (within 1 %) is measured by the 60 s run of bench/src/webhook-rate.ts, not here.
 */
function expectAtMostLeakRate(rate: number): void {
  expect(rate, `fitted rate ${rate.toFixed(3)}/s`).toBeLessThan(5 * 1.06);
}

describe('webhook delivery at the leak rate', () => {
  it('delivers every event once, in FIFO order, at the endpoint’s constant rate, signed', async () => {
    const sink = await receiver();
    const { endpoint, secret } = await world.createEndpoint(sink.url, { leakRatePerSec: 5 });
    await world.startWorker();

    const ids = await world.enqueue(endpoint, 36);
    await until('36 deliveries', () => sink.arrivals.length >= 36);

    const arrived = sink.arrivals.map((arrival) => arrival.eventId);
    expect([...arrived].sort()).toEqual([...ids].sort());
    // 200 ms apart: a worker stalled up to a second lets at most 5 later events pass one; a
    // dispatcher that ignored the FIFO would scatter them further
    expect(fifoBreaks(arrived, ids, 5)).toEqual([]);
    expectAtMostLeakRate(fittedRate(sink.arrivals));
    for (const arrival of sink.arrivals) {
      expect(
        verifyWebhookSignature({ secret, headers: arrival.headers, rawBody: arrival.body }),
      ).toBe(true);
      expect(JSON.parse(arrival.body)).toMatchObject({ id: arrival.eventId, type: 'test.event' });
      expect(arrival.headers['content-type']).toBe('application/json');
    }
    await until('every attempt recorded', async () => {
      return (await world.prisma.webhookDelivery.count({ where: { status: 'delivered' } })) === 36;
    });
    const rows = await world.prisma.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
    });
    expect(rows.every((row) => row.attempt === 1 && row.responseCode === 200)).toBe(true);
    expect(rows.every((row) => row.latencyMs !== null && row.latencyMs >= 0)).toBe(true);
    // an attempt's row is written before its counters, and its in-flight slot is released last:
    // the last row can exist while its slot is still held, so wait for the bookkeeping to settle
    let stats: QueueStats | undefined;
    await until('the queue’s bookkeeping settles', async () => {
      [stats] = await readQueueStats(world.redis.redis, world.redis.prefix, endpoint.tenantId, [
        endpoint.id,
      ]);
      return stats?.inFlight === 0 && stats.delivered === 36;
    });
    expect(stats).toMatchObject({ depth: 0, delivered: 36, failed: 0, dead: 0, inFlight: 0 });
  });

  it('spreads events that fell due together at the rate instead of sending them at once', async () => {
    const sink = await receiver();
    const { endpoint } = await world.createEndpoint(sink.url, { leakRatePerSec: 5 });
    // admitted while no worker runs: by the time one starts, all ten are overdue together
    const ids = await world.enqueue(endpoint, 10);
    const lastDeparture = Math.max(
      ...(await Promise.all(
        ids.map(async (id) => (await world.queue.getJob(id))!.data.departureAt),
      )),
    );
    await until('every departure has passed', () => Date.now() > lastDeparture + 200);
    await world.startWorker();

    await until('10 deliveries', () => sink.arrivals.length >= 10);

    const arrived = sink.arrivals.map((arrival) => arrival.eventId);
    expect([...arrived].sort()).toEqual([...ids].sort());
    // 200 ms apart: a worker stalled up to a second lets at most 5 later events pass one; a
    // dispatcher that ignored the FIFO would scatter them further
    expect(fifoBreaks(arrived, ids, 5)).toEqual([]);
    // 9 intervals of 200 ms: the dispatch schedule spaces the sends (without it, the worker's
    // slots would send them within a few ms); a third off leaves room for a stalled machine
    const arrivals = sink.arrivals;
    expect(arrivals.at(-1)!.at - arrivals[0]!.at).toBeGreaterThan(1200);
  });

  it('keeps a healthy endpoint’s rate while another one beside it hangs and fails', async () => {
    const healthy = await receiver();
    // answers after the worker's 1 s timeout: every attempt fails, holding its slot meanwhile
    const hanging = await receiver([{ status: 200, delayMs: 1500 }]);
    const good = await world.createEndpoint(healthy.url, { leakRatePerSec: 5 });
    const bad = await world.createEndpoint(hanging.url, { leakRatePerSec: 20, maxAttempts: 2 });
    // few worker slots, so a slow endpoint that could hold them all would starve the other one
    await world.startWorker({ WORKER_WEBHOOK_CONCURRENCY: '4', WORKER_WEBHOOK_MAX_IN_FLIGHT: '2' });

    await world.enqueue(bad.endpoint, 40);
    const ids = await world.enqueue(good.endpoint, 30);
    await until('30 healthy deliveries', () => healthy.arrivals.length >= 30);

    const arrived = healthy.arrivals.map((arrival) => arrival.eventId);
    expect([...arrived].sort()).toEqual([...ids].sort());
    // 200 ms apart: a worker stalled up to a second lets at most 5 later events pass one; a
    // dispatcher that ignored the FIFO would scatter them further
    expect(fifoBreaks(arrived, ids, 5)).toEqual([]);
    const rate = fittedRate(healthy.arrivals);
    expectAtMostLeakRate(rate);
    // it kept its rate by construction: the hanging endpoint never held more than its in-flight
    // slots (below), so two of the four were always free for this one; how close to 5/s it gets
    // is bench/src/webhook-rate.ts's figure, not a check here (a loaded machine only delivers late)
    expect(hanging.arrivals.length).toBeGreaterThan(0);
    // the hanging endpoint never held more than its in-flight slots
    expect(hanging.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('refuses at delivery a destination outside the allowed networks, sending nothing', async () => {
    // 127.0.0.2 is loopback too, but only 127.0.0.1/32 is allowed in these tests
    const elsewhere = await receiver(undefined, '127.0.0.2');
    const metadata = await world.createEndpoint('http://169.254.169.254/latest/meta-data', {
      maxAttempts: 1,
    });
    const loopback = await world.createEndpoint(elsewhere.url, { maxAttempts: 1 });
    await world.startWorker();

    const [toMetadata] = await world.enqueue(metadata.endpoint, 1);
    const [toLoopback] = await world.enqueue(loopback.endpoint, 1);
    await until('both attempts recorded', async () => {
      return (await world.prisma.webhookDelivery.count()) === 2;
    });

    expect(elsewhere.arrivals).toEqual([]);
    const rows = await world.prisma.webhookDelivery.findMany({ orderBy: { createdAt: 'asc' } });
    expect(rows.map((row) => [row.eventId, row.status, row.responseCode])).toEqual(
      expect.arrayContaining([
        [toMetadata, 'dead', null],
        [toLoopback, 'dead', null],
      ]),
    );
    expect(rows.find((row) => row.eventId === toMetadata)?.error).toMatch(
      /169\.254\.169\.254.*linkLocal/,
    );
    expect(rows.find((row) => row.eventId === toLoopback)?.error).toMatch(/127\.0\.0\.2.*loopback/);
  });

  it('reports each endpoint’s queue on /metrics', async () => {
    // never answers in time: events stay queued. The first attempt stays in flight for 30 s
    // (its timeout), the next event is not due for 50 s: read within that, whatever the
    // machine's load, /metrics sees one in flight and three queued
    const hanging = await receiver([{ status: 200, delayMs: 600_000 }]);
    const { endpoint } = await world.createEndpoint(hanging.url, { leakRatePerSec: 0.02 });
    const app = await world.startWorker({ WORKER_WEBHOOK_TIMEOUT_MS: '30000' });
    await world.enqueue(endpoint, 3);
    await until('one delivery in flight', () => hanging.arrivals.length >= 1);

    const body = await (await fetch(`${await app.getUrl()}/metrics`)).text();

    const labels = `{tenant="${endpoint.tenantId}",endpoint="${endpoint.id}"}`;
    expect(body).toContain(`sluice_webhook_queue_depth${labels} 3\n`);
    expect(body).toContain(`sluice_webhook_leak_rate${labels} 0.02\n`);
    expect(body).toContain(`sluice_webhook_in_flight${labels} 1\n`);
    expect(body).toContain(`sluice_webhook_dead_letters${labels} 0\n`);
    expect(body).toMatch(
      new RegExp(`sluice_webhook_oldest_waiting_seconds${labels.replace(/[{}]/g, '\\$&')} \\d`),
    );
    expect(
      await world.redis.redis.zcard(
        endpointKeys(world.redis.prefix, endpoint.tenantId, endpoint.id).pending,
      ),
    ).toBe(3);
  });
});
