import { type DynamicModule, Module } from '@nestjs/common';
import { testRedisUrl } from '@sluice/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  HealthModule,
  type ReadinessCheck,
  type ReadinessResult,
  RedisModule,
  RedisReadinessCheck,
  RedisService,
} from '../src';
import { closeApps, startApp, testAppModule } from './support/test-app';

const service = { service: 'nest-kit-test', version: '1.2.3' };
const unreachableRedisUrl = 'redis://127.0.0.1:1'; // nothing listens on port 1

/** A dependency whose state the test sets, as a PostgreSQL check would report it. */
class QueueReadinessCheck implements ReadinessCheck {
  readonly name = 'queue';

  constructor(private readonly result: ReadinessResult | Error) {}

  async check(): Promise<ReadinessResult> {
    if (this.result instanceof Error) throw this.result;
    return this.result;
  }
}

@Module({})
class QueueModule {
  static withResult(result: ReadinessResult | Error): DynamicModule {
    const check = { provide: QueueReadinessCheck, useValue: new QueueReadinessCheck(result) };
    return { module: QueueModule, global: true, providers: [check], exports: [check.provide] };
  }
}

/**
 * Boots `module`; with a reachable Redis, returns once its connection is up, so that the probe's
 * 1 s PING budget covers the PING alone, not a connect still under way on a loaded machine.
 */
async function startHealthApp(module: DynamicModule, redisUrl: string) {
  const started = await startApp(module);
  const { client } = started.app.get(RedisService);
  if (redisUrl !== unreachableRedisUrl && client.status !== 'ready') {
    await new Promise((resolve) => client.once('ready', resolve));
  }
  return started;
}

function redisHealthApp(redisUrl = testRedisUrl()) {
  return startHealthApp(
    testAppModule([
      RedisModule.forRoot({ url: redisUrl }),
      HealthModule.forRoot({ ...service, readiness: [RedisReadinessCheck] }),
    ]),
    redisUrl,
  );
}

afterEach(closeApps);

describe('GET /healthz', () => {
  it('answers with status, service and version as JSON', async () => {
    const { url } = await redisHealthApp();

    const response = await fetch(`${url}/healthz`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ status: 'ok', ...service });
  });

  it('keeps answering while Redis is unreachable', async () => {
    const { url } = await redisHealthApp(unreachableRedisUrl);

    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});

describe('GET /readyz', () => {
  it('is ready while Redis answers PING', async () => {
    const { url } = await redisHealthApp();

    const response = await fetch(`${url}/readyz`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', checks: { redis: 'ok' } });
  });

  it('is unavailable, as problem+json, while Redis is unreachable', async () => {
    const { url } = await redisHealthApp(unreachableRedisUrl);

    const response = await fetch(`${url}/readyz`);

    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'Redis did not answer PING within 1000 ms.',
    });
  });

  it('is not served when there is nothing to be ready for', async () => {
    const { url } = await startApp(testAppModule([HealthModule.forRoot(service)]));

    expect((await fetch(`${url}/readyz`)).status).toBe(404);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  describe('with a further check from another module', () => {
    const startWithQueue = (result: ReadinessResult | Error, redisUrl = testRedisUrl()) =>
      startHealthApp(
        testAppModule([
          QueueModule.withResult(result),
          RedisModule.forRoot({ url: redisUrl }),
          HealthModule.forRoot({
            ...service,
            readiness: [RedisReadinessCheck, QueueReadinessCheck],
          }),
        ]),
        redisUrl,
      );

    it('lists every check when all pass', async () => {
      const { url } = await startWithQueue({ ready: true });

      const response = await fetch(`${url}/readyz`);

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        status: 'ok',
        checks: { redis: 'ok', queue: 'ok' },
      });
    });

    it('is unavailable, saying why, when that check fails', async () => {
      const { url } = await startWithQueue({ ready: false, detail: 'The queue is paused.' });

      const response = await fetch(`${url}/readyz`);

      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ detail: 'The queue is paused.' });
    });

    it('is unavailable, naming the check, when that check throws', async () => {
      const { url } = await startWithQueue(new Error('connection reset'));

      const response = await fetch(`${url}/readyz`);

      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ detail: 'queue: connection reset' });
    });

    it('says what is wrong with every failing check', async () => {
      const { url } = await startWithQueue(
        { ready: false, detail: 'The queue is paused.' },
        unreachableRedisUrl,
      );

      const response = await fetch(`${url}/readyz`);

      expect(await response.json()).toMatchObject({
        detail: 'Redis did not answer PING within 1000 ms. The queue is paused.',
      });
    });
  });
});
