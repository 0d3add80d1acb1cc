import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '@sluice/testing';
import { readHeartbeats } from '@sluice/nest-kit';
import { Queue, QueueEvents } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';
import { bullmqOptions } from '../src/jobs/bullmq-options';
import { SYSTEM_QUEUE, SystemWorker } from '../src/jobs/system.worker';

let testRedis: TestRedis;
let database: TestDatabase;
let app: NestFastifyApplication | undefined;
let queue: Queue;
let queueEvents: QueueEvents;

beforeEach(async () => {
  testRedis = createTestRedis('worker-jobs');
  // its own database: the usage jobs start with the app
  database = await createTestDatabase();
  const env = parseEnv(envSchema, {
    DATABASE_URL: database.url,
    SLUICE_KEY_PREFIX: testRedis.prefix,
    LOG_LEVEL: 'silent',
    WORKER_HEARTBEAT_MS: '1000',
  });
  app = await createApp(env);
  await app.init();
  queue = new Queue(SYSTEM_QUEUE, bullmqOptions(env));
  queueEvents = new QueueEvents(SYSTEM_QUEUE, bullmqOptions(env));
  await queueEvents.waitUntilReady();
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  await Promise.all([queue.close(), queueEvents.close()]);
  await testRedis.cleanup();
  await database.drop();
});

describe('system queue worker', () => {
  it('fails a job it has no handler for, without retrying it', async () => {
    const job = await queue.add('no-such-job', {}, { attempts: 3 });

    await expect(job.waitUntilFinished(queueEvents)).rejects.toThrow(
      `no handler for job "no-such-job" on queue "${SYSTEM_QUEUE}"`,
    );
    expect(await job.getState()).toBe('failed');
    expect((await queue.getJob(job.id!))?.attemptsMade).toBe(1);
    // The job lives under SLUICE_KEY_PREFIX, so tests and deployments sharing a Redis stay apart.
    expect(await testRedis.redis.exists(`${testRedis.prefix}bull:${SYSTEM_QUEUE}:${job.id}`)).toBe(
      1,
    );
  });

  it('runs until the app closes', async () => {
    const worker = app!.get(SystemWorker);
    expect(worker.isRunning()).toBe(true);

    await app!.close();
    app = undefined;

    expect(worker.isRunning()).toBe(false);
    expect(await queue.getWorkersCount()).toBe(0);
  });

  it('beats with each queue it consumes, its jobs by state, and stops beating when closed', async () => {
    await queue.add('no-such-job', {}, { delay: 60_000 });
    const beats = () => readHeartbeats(testRedis.redis, testRedis.prefix, 'worker');
    // the first beat is written at bootstrap; the next one counts the delayed job
    let queues: { name: string; running: boolean; delayed: number }[] = [];
    for (;;) {
      queues = (await beats())[0]?.beat?.details.queues ?? [];
      if (queues.find((q) => q.name === SYSTEM_QUEUE)?.delayed === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(queues.map((q) => [q.name, q.running])).toEqual([
      [SYSTEM_QUEUE, true],
      ['sluice-usage', true],
      // no SLUICE_SECRETS_KEY: the webhook dispatcher stays off, and the beat says so
      ['sluice-webhooks', false],
    ]);
    expect(queues[0]).toMatchObject({ waiting: 0, active: 0, delayed: 1, failed: 0 });

    await app!.close();
    app = undefined;
    expect(await beats()).toEqual([]);
  });
});
