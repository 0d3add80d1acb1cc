import { freePort, uniquePrefix } from '@sluice/testing';
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UnavailableError } from '../src';
import { startExpressApp, startFastifyApp, startNestApp } from './apps';
import { spawnDataPlane, type DataPlane } from './data-plane';
import { bucket, clientFor, tenants, type Tenant } from './support';

// A real 5xx: a data plane of its own over a redis-server of its own, which the test stops (by
// PID). The data plane then answers its policy's fail mode, `closed` here: 503
// `temporary-reduced-capacity` with `Retry-After: 1`.

let redisServer: ChildProcess;
let dataPlane: DataPlane;
let tenant: Tenant;

async function answersPing(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

beforeAll(async () => {
  const port = await freePort();
  const redisUrl = `redis://127.0.0.1:${port}`;
  redisServer = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await vi.waitUntil(() => answersPing(redisUrl), { timeout: 30_000, interval: 50 });
  const prefix = uniquePrefix('sdk-outage');
  dataPlane = await spawnDataPlane(redisUrl, prefix);
  const own = tenants({ redisUrl, prefix });
  tenant = await own.create([{ name: 'api', failMode: 'closed', rules: [bucket('burst', 100)] }]);
  // cache the key and the policy while Redis answers, as a running service would have: until a
  // check is decided in Redis (one that timed out on a loaded machine would not say so)
  const warm = clientFor(tenant.apiKey, { baseUrl: dataPlane.url });
  await vi.waitUntil(
    async () => (await warm.check({ policy: 'api', identifier: 'warm' })).reason === 'allowed',
    { timeout: 30_000, interval: 50 },
  );
  await own.close();
  const exited = once(redisServer, 'exit');
  redisServer.kill('SIGTERM');
  await exited;
});
afterAll(async () => {
  // its graceful stop would wait for a final usage flush to the stopped Redis: a short grace
  await dataPlane?.process.stop(500);
  if (redisServer?.exitCode === null) redisServer.kill('SIGTERM');
});

describe('the data plane answers 5xx (its Redis is down, the policy fails closed)', () => {
  it('check() with failMode closed throws UnavailableError with the data plane’s problem', async () => {
    const client = clientFor(tenant.apiKey, { baseUrl: dataPlane.url, failMode: 'closed' });
    const error = await client.check({ policy: 'api', identifier: 'a' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({
      reason: 'server',
      status: 503,
      type: 'https://sluice.dev/problems/temporary-reduced-capacity',
      retryAfterMs: 1000,
    });
  });

  it('check() with failMode open answers client-fail-open', async () => {
    const client = clientFor(tenant.apiKey, { baseUrl: dataPlane.url });

    expect(await client.check({ policy: 'api', identifier: 'a' })).toMatchObject({
      allowed: true,
      reason: 'client-fail-open',
    });
  });

  it.each([
    ['Express', startExpressApp],
    ['Fastify', startFastifyApp],
    ['Nest', startNestApp],
  ])('%s passes the data plane’s 503 problem and its Retry-After on', async (_name, start) => {
    const app = await start({
      client: clientFor(tenant.apiKey, { baseUrl: dataPlane.url, failMode: 'closed' }),
      policy: 'api',
      identify: 'header',
      handle: () => undefined,
    });
    try {
      const response = await fetch(`${app.url}/hello`, { headers: { 'x-user': 'a' } });

      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.json()).toEqual({
        type: 'https://sluice.dev/problems/temporary-reduced-capacity',
        title: 'Service Unavailable',
        status: 503,
        detail: expect.stringMatching(
          /^Rate limits cannot be checked right now.*Retry after 1 second\.$/,
        ),
        instance: '/hello',
      });
    } finally {
      await app.close();
    }
  });
});
