import { readHeartbeats } from '@sluice/nest-kit';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { apiKey, bucket, check, policy, publish, startApp, until } from './support';

// The heartbeat the platform view lists data planes by: what the process decided, its Redis
// connections and clock, and the policy versions its cache enforces; gone when it stops cleanly.

describe('heartbeat', () => {
  it('reports decisions, Redis and the cached versions, and is removed at shutdown', async () => {
    const app = await startApp({ DATA_PLANE_HEARTBEAT_MS: '1000' });
    let closed = false;
    try {
      const published = await publish(app.t, 'tnt_h', [
        policy('api', { rules: [bucket('burst', 2)] }),
      ]);
      const secret = await apiKey(app.t, 'tnt_h');
      for (let i = 0; i < 5; i += 1)
        await check(app.url, secret, { policy: 'api', identifier: 'h' });

      const beat = async () => (await readHeartbeats(app.t.redis, app.t.prefix, 'data-plane'))[0];
      await until(async () => (await beat())?.beat?.details.decisions.denied === 3, 100);
      const listed = await beat();
      expect(listed).toMatchObject({ live: true });
      expect(listed?.beat).toMatchObject({
        version: packageJson.version,
        pid: process.pid,
        intervalMs: 1000,
        details: {
          decisions: { allowed: 2, denied: 3 },
          redis: {
            connections: { engine: 'ready', changes: 'ready', usage: 'ready' },
            openCircuits: 0,
          },
          cache: { tenants: 1, versions: { tnt_h: published.version }, versionsOmitted: 0 },
        },
      });
      expect(listed?.beat?.details.redis.clockUncertaintyMs).toEqual(expect.any(Number));
      // the workers' beats are listed apart
      expect(await readHeartbeats(app.t.redis, app.t.prefix, 'worker')).toEqual([]);

      await app.app.close();
      closed = true;
      expect(await readHeartbeats(app.t.redis, app.t.prefix, 'data-plane')).toEqual([]);
      expect(await app.t.redis.keys(`${app.t.prefix}heartbeat*`)).toEqual([]);
    } finally {
      if (!closed) await app.app.close();
      await app.t.cleanup();
    }
  });
});
