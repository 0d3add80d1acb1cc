import { describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { startTestApp } from './support/test-app';

describe('control-plane HTTP', () => {
  it('answers the probes, with PostgreSQL and Redis checked for readiness', async () => {
    const app = await startTestApp();
    try {
      const health = await fetch(`${app.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await health.json()).toEqual({
        status: 'ok',
        service: 'control-plane',
        version: packageJson.version,
      });

      // readiness gives PostgreSQL and Redis 1 s each to answer: a machine that stalls longer
      // answers 503 once, so ask again until ready (a readiness that never comes still fails)
      const deadline = Date.now() + 30_000;
      let ready = await fetch(`${app.url}/readyz`);
      while (ready.status !== 200 && Date.now() < deadline) {
        await ready.text();
        await new Promise((resolve) => setTimeout(resolve, 200));
        ready = await fetch(`${app.url}/readyz`);
      }
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
    } finally {
      await app.close();
    }
  });
});
