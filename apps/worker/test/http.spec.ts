import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
  testRedisUrl,
} from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';
import { SYSTEM_QUEUE } from '../src/jobs/system.worker';

let testRedis: TestRedis;
let database: TestDatabase;
let app: NestFastifyApplication | undefined;

/** Boots the app in-process on a free port, its BullMQ keys under the test's prefix. */
async function start(): Promise<string> {
  app = await createApp(
    parseEnv(envSchema, {
      // its own database: the usage jobs start with the app
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SLUICE_KEY_PREFIX: testRedis.prefix,
      LOG_LEVEL: 'silent',
    }),
  );
  await app.listen(0, '127.0.0.1');
  return app.getUrl();
}

beforeEach(async () => {
  testRedis = createTestRedis('worker-http');
  database = await createTestDatabase();
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  await testRedis.cleanup();
  await database.drop();
});

describe('worker HTTP', () => {
  it('answers GET /healthz with its name and version', async () => {
    const response = await fetch(`${await start()}/healthz`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      service: 'worker',
      version: packageJson.version,
    });
  });

  it('is ready while Redis answers PING', async () => {
    const response = await fetch(`${await start()}/readyz`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', checks: { redis: 'ok' } });
  });

  it('reports its running queue worker and Node defaults in Prometheus text format', async () => {
    const response = await fetch(`${await start()}/metrics`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const body = await response.text();
    expect(body).toContain(`sluice_worker_running{queue="${SYSTEM_QUEUE}"} 1\n`);
    expect(body).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});
