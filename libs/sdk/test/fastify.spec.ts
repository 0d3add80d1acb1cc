import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sluiceHook, sluicePlugin } from '../src/fastify';
import { startFastifyApp, userHeader } from './apps';
import { describeGuard } from './guard-suite';
import { bucket, clientFor, tenants, type Tenant } from './support';

describeGuard('Fastify', startFastifyApp);

describe('Fastify: the plugin and the per-route hook', () => {
  const seed = tenants();
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await seed.create([{ name: 'api', rules: [bucket('burst', 1)] }]);
  });
  afterAll(() => seed.close());

  it('the plugin guards the routes declared beside it, not only inside its own context', async () => {
    const app = Fastify();
    await app.register(sluicePlugin, { client: clientFor(tenant.apiKey), policy: 'api' });
    app.get('/root', async () => 'ok');
    try {
      const [first, second] = [await app.inject('/root'), await app.inject('/root')];

      expect(first.statusCode).toBe(200);
      expect(first.headers['x-ratelimit-limit']).toBe('1');
      expect(second.statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('sluiceHook guards only the routes it is given to', async () => {
    const app = Fastify();
    const hook = sluiceHook({
      client: clientFor(tenant.apiKey),
      policy: 'api',
      identifier: userHeader,
    });
    app.get('/guarded', { onRequest: hook }, async () => 'ok');
    app.get('/free', async () => 'ok');
    try {
      const headers = { 'x-user': 'hook-user' };
      const guarded = [
        await app.inject({ url: '/guarded', headers }),
        await app.inject({ url: '/guarded', headers }),
      ];
      const free = await app.inject({ url: '/free', headers });

      expect(guarded.map((reply) => reply.statusCode)).toEqual([200, 429]);
      expect(guarded[1]!.json()).toMatchObject({ instance: '/guarded' });
      expect(free.statusCode).toBe(200);
      expect(free.headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
