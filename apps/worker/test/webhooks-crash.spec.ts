import { freePort, startServer, type ServerProcess } from '@sluice/testing';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startReceiver,
  until,
  webhookWorld,
  workerEnv,
  type Receiver,
  type WebhookWorld,
} from './webhooks-support';

/** The built worker (`npx nx run @sluice/worker:build`), run as a process of its own. */
const MAIN = path.resolve(__dirname, '../dist/main.js');

let world: WebhookWorld;
let receiver: Receiver | undefined;
const workers: ServerProcess[] = [];

beforeEach(async () => {
  world = await webhookWorld('worker-crash');
});
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop(1000);
  await receiver?.close();
  receiver = undefined;
  await world?.close();
});

/** A worker process whose dead deliveries are picked up again within about 3 s. */
async function spawnWorker(): Promise<ServerProcess> {
  if (!existsSync(MAIN)) {
    throw new Error(`${MAIN} is missing: build it first (npx nx run @sluice/worker:build)`);
  }
  const port = await freePort();
  const worker = await startServer(process.execPath, [MAIN], {
    env: {
      PATH: process.env['PATH'],
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      WORKER_PORT: String(port),
      ...workerEnv(world.database, world.redis, {
        WORKER_WEBHOOK_TIMEOUT_MS: '10000',
        WORKER_WEBHOOK_LOCK_MS: '2000',
        WORKER_WEBHOOK_STALLED_INTERVAL_MS: '1000',
      }),
    },
    readyUrl: `http://127.0.0.1:${port}/readyz`,
  });
  workers.push(worker);
  return worker;
}

function exited(worker: ServerProcess): Promise<{ code: number | null; signal: string | null }> {
  const { child } = worker;
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

const deliveredRows = () =>
  world.prisma.webhookDelivery.findMany({ where: { status: 'delivered' } });

describe('webhook worker crashes', () => {
  it('loses no event when a worker is killed with SIGKILL mid-delivery', async () => {
    // nothing is answered before the kill: however late the test gets to kill the worker,
    // the deliveries it sent are in flight, none delivered
    receiver = await startReceiver([{ status: 200, delayMs: 600_000 }]);
    const { endpoint } = await world.createEndpoint(receiver.url, { leakRatePerSec: 4 });
    const ids = await world.enqueue(endpoint, 12);
    const first = await spawnWorker();
    await until('three deliveries under way', () => receiver!.arrivals.length >= 3);

    first.child.kill('SIGKILL');
    expect(await exited(first)).toEqual({ code: null, signal: 'SIGKILL' });
    // the receiver reports a request before the close of its connection: once the dead
    // worker's connections are all closed, every request it sent has been reported
    await until('the dead worker’s connections are closed', () => receiver!.connections.open === 0);
    const sentBeforeKill = new Set(receiver.arrivals.map((arrival) => arrival.eventId));
    await receiver.answerWith([{ status: 200 }]);
    await spawnWorker();
    await until('every event delivered', async () => (await deliveredRows()).length === 12, 60_000);

    const arrived = receiver.arrivals.map((arrival) => arrival.eventId);
    expect(new Set(arrived)).toEqual(new Set(ids));
    // exactly those cut off by the kill came again, with the same event id
    const twice = ids.filter((id) => arrived.filter((seen) => seen === id).length > 1);
    expect(twice.length).toBeGreaterThan(0);
    expect(new Set(twice)).toEqual(sentBeforeKill);
    const rows = await deliveredRows();
    expect(rows.map((row) => row.eventId).sort()).toEqual([...ids].sort());
  });

  it('finishes the deliveries in flight on SIGTERM before it exits, and leaves the rest queued', async () => {
    receiver = await startReceiver([{ status: 200, delayMs: 1500 }]);
    // 5 s apart: the next event is not sent before the SIGTERM, even if the test is late with it
    const { endpoint } = await world.createEndpoint(receiver.url, { leakRatePerSec: 0.2 });
    const ids = await world.enqueue(endpoint, 3);
    const worker = await spawnWorker();
    await until('the first delivery under way', () => receiver!.arrivals.length >= 1);

    worker.child.kill('SIGTERM');
    // Nest runs its shutdown hooks, then ends the process with the signal it got
    expect(await exited(worker)).toEqual({ code: null, signal: 'SIGTERM' });

    // the one in flight (answered 1.5 s after it arrived) was recorded before the process exited
    expect((await deliveredRows()).map((row) => row.eventId)).toEqual([ids[0]]);
    await spawnWorker();
    await until('every event delivered', async () => (await deliveredRows()).length === 3);
    expect(receiver.arrivals.map((arrival) => arrival.eventId)).toEqual(ids);
  });
});
