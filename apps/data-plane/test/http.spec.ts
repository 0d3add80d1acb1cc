import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import { testRedisUrl } from '@sluice/testing';
import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';

let app: NestFastifyApplication | undefined;

/** Boots the app in-process on a free port and returns its base URL. */
async function start(): Promise<string> {
  app = await createApp(parseEnv(envSchema, { REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent' }));
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
});
