import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import { testRedisUrl } from '@sluice/testing';
import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';
import { RedisService } from '../src/redis/redis.service';

let app: NestFastifyApplication | undefined;

/** Boots the app in-process on a free port and returns its base URL. */
async function start(redisUrl = testRedisUrl()): Promise<string> {
  app = await createApp(parseEnv(envSchema, { REDIS_URL: redisUrl, LOG_LEVEL: 'silent' }));
  await app.listen(0, '127.0.0.1');
  return app.getUrl();
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('data-plane HTTP', () => {
  it('answers GET /healthz with its name and version', async () => {
    const response = await fetch(`${await start()}/healthz`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      service: 'data-plane',
      version: packageJson.version,
    });
  });

  it('is ready while Redis answers PING', async () => {
    const response = await fetch(`${await start()}/readyz`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', checks: { redis: 'ok' } });
  });

  it('is unavailable, as problem+json, while Redis is unreachable', async () => {
    // Nothing listens on port 1.
    const response = await fetch(`${await start('redis://127.0.0.1:1')}/readyz`);

    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: expect.stringContaining('Redis'),
    });
  });

  it('keeps answering /healthz while Redis is unreachable', async () => {
    const response = await fetch(`${await start('redis://127.0.0.1:1')}/healthz`);

    expect(response.status).toBe(200);
  });

  it('closes its Redis connection when the app closes', async () => {
    await start();
    const redis = app!.get(RedisService).client;
    expect(await redis.ping()).toBe('PONG');

    await app!.close();
    app = undefined;

    expect(redis.status).toBe('end');
  });

  it('exposes default Node metrics in Prometheus text format', async () => {
    const response = await fetch(`${await start()}/metrics`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});
