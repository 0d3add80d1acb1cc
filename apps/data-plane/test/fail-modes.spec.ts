import { OwnRedisServer } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bucket,
  check,
  policy,
  publish,
  release,
  request,
  settle,
  startApp,
  until,
  type Answer,
  type TestApp,
} from './support';

let server: OwnRedisServer;
let app: TestApp;
let secret: string;

/**
 * The longest timeout a policy allows: a check that must be decided in Redis is, even on a loaded
 * machine; one that must time out does, since the server is stopped or stalled (SIGSTOP).
 */
const TIMEOUT_MS = 1000;

/** One policy per fail mode, and a shadow one that would fail closed. */
const policies = () => [
  policy('open', { failMode: 'open', redisTimeoutMs: TIMEOUT_MS, rules: [bucket('burst', 10)] }),
  policy('closed', {
    failMode: 'closed',
    redisTimeoutMs: TIMEOUT_MS,
    rules: [bucket('burst', 10)],
  }),
  policy('local', { failMode: 'local', redisTimeoutMs: TIMEOUT_MS, rules: [bucket('burst', 2)] }),
  policy('shadow', {
    mode: 'shadow',
    failMode: 'closed',
    redisTimeoutMs: TIMEOUT_MS,
    rules: [bucket('burst', 10)],
  }),
  policy('local-llm', {
    failMode: 'local',
    redisTimeoutMs: TIMEOUT_MS,
    reservations: {},
    rules: [
      bucket('tokens', 100),
      { name: 'inflight', algorithm: 'concurrency', limit: 1, leaseTtlMs: 60_000 },
    ],
  }),
];

beforeAll(async () => {
  // its data survives a restart, as a real Redis' would
  server = await OwnRedisServer.create({ persist: true });
  // a short circuit so recovery is quick; the cache re-checks often to notice the server again
  app = await startApp(
    { DATA_PLANE_BREAKER_OPEN_MS: '100', DATA_PLANE_USAGE_FLUSH_MS: '100' },
    server.connections('dp-own'),
    server.url,
  );
  await publish(app.t, 'tnt_a', policies());
  secret = await apiKey(app.t, 'tnt_a');
});
afterAll(async () => {
  await app.close();
  await server.destroy();
});

const decide = (name: string, identifier: string, options = {}) =>
  check(app.url, secret, { policy: name, identifier }, options);
const body = (answer: Answer) => answer.body as { allowed: boolean; reason: string };

async function redisErrors(source: string): Promise<number> {
  const text = (await request(app.url, '/metrics')).body as string;
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`sluice_redis_errors_total{source="${source}"} `));
  return Number(line?.split(' ')[1]);
}

/** Every fail mode as the spec promises it, whatever made Redis fail. */
async function expectFailModes(identifier: string): Promise<void> {
  const open = await decide('open', identifier);
  expect(open.status).toBe(200);
  expect(open.body).toMatchObject({ allowed: true, reason: 'fail-open', rules: [] });
  expect(open.headers.get('x-ratelimit-limit')).toBeNull();

  for (const options of [{}, { headers: { prefer: 'gateway' } }]) {
    const closed = await decide('closed', identifier, options);
    expect(closed.status).toBe(503);
    expect(closed.contentType).toMatch(/^application\/problem\+json/);
    expect(closed.body).toMatchObject({
      type: 'https://sluice.dev/problems/temporary-reduced-capacity',
      status: 503,
      instance: '/v1/check',
    });
    expect(closed.headers.get('retry-after')).toBe('1');
  }

  const local = [
    await decide('local', identifier),
    await decide('local', identifier),
    await decide('local', identifier),
  ];
  expect(local.map((a) => [body(a).allowed, body(a).reason])).toEqual([
    [true, 'local'],
    [true, 'local'],
    [false, 'local'],
  ]);
  expect(local[2]!.headers.get('x-ratelimit-limit')).toBe('2');
  const localGateway = await decide('local', identifier, { query: '?mode=gateway' });
  expect(localGateway.status).toBe(429);

  expect((await decide('shadow', identifier)).body).toMatchObject({
    allowed: true,
    reason: 'fail-open',
  });
}

/** Caches the tenant and the key: ends on a check decided in Redis. */
async function warmUp(): Promise<void> {
  await until(async () => body(await decide('open', 'warm')).reason === 'allowed', 50);
}

/** Waits until Redis decides checks again (the circuit closes after its first good probe). */
async function recovered(identifier: string): Promise<void> {
  await until(async () => body(await decide('closed', identifier)).reason === 'allowed', 50);
  expect((await decide('open', identifier)).body).toMatchObject({ reason: 'allowed' });
}

describe('fail modes', () => {
  it('answers each fail mode while redis-server is stopped, and recovers when it is back', async () => {
    // cache the tenant and the key while Redis answers
    await warmUp();

    await server.stop();
    await expectFailModes('while-stopped');
    const ready = await request(app.url, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.contentType).toMatch(/^application\/problem\+json/);
    // a key the cache has never seen cannot be checked: 503, not 401
    const unknown = await check(app.url, 'sk_live_unseenunseenunseenunseenunseen00', {
      policy: 'open',
      identifier: 'x',
    });
    expect(unknown.status).toBe(503);
    expect(unknown.headers.get('retry-after')).toBe('1');
    // the failures are counted: connection attempts and usage flushes
    expect(await redisErrors('connection')).toBeGreaterThan(0);
    await until(async () => (await redisErrors('usage')) > 0);

    await server.start();
    await recovered('after-restart');
    expect((await request(app.url, '/readyz')).status).toBe(200);
  });

  it('settles and releases what the local fail mode handed out; other ids are a 503', async () => {
    await warmUp();

    await server.stop();
    try {
      const held = await check(app.url, secret, {
        policy: 'local-llm',
        identifier: 'local',
        cost: 60,
      });
      const { reservationId, leaseId } = held.body as { reservationId: string; leaseId: string };
      expect(held.body).toMatchObject({ allowed: true, reason: 'local' });

      const settled = await settle(app.url, secret, { reservationId, actualCost: 20 });
      expect(settled.status).toBe(200);
      expect(settled.body).toMatchObject({ rules: [{ name: 'tokens', charged: -40 }] });
      expect((await release(app.url, secret, { leaseId })).body).toEqual({
        leaseId,
        released: true,
      });
      const unknown = await settle(app.url, secret, {
        reservationId: reservationId.replace(/\.[0-9A-Za-z]{16}$/, `.${'a'.repeat(16)}`),
        actualCost: 1,
      });
      expect(unknown.status).toBe(503);
      expect(unknown.headers.get('retry-after')).toBe('1');
    } finally {
      await server.start();
    }
    await recovered('after-local');
  });

  it('answers each fail mode at the policy timeout while redis-server is stalled', async () => {
    await warmUp();

    const before = await redisErrors('engine');
    server.pause();
    try {
      await expectFailModes('while-stalled');
    } finally {
      server.resume();
    }
    // each check that timed out is a counted engine failure
    expect(await redisErrors('engine')).toBeGreaterThan(before);
    await recovered('after-stall');
  });
});
