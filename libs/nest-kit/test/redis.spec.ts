import { Logger } from '@nestjs/common';
import { freePort, testRedisUrl } from '@sluice/testing';
import type { Redis } from 'ioredis';
import { type ChildProcess, spawn } from 'node:child_process';
import { on, once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisModule, RedisService } from '../src';
import { closeApp, closeApps, RecordingLogger, startApp, testAppModule } from './support/test-app';

const unreachableRedisUrl = 'redis://127.0.0.1:1'; // nothing listens on port 1

async function redisApp(url = testRedisUrl()) {
  const { app } = await startApp(testAppModule([RedisModule.forRoot({ url })]));
  return { app, redis: app.get(RedisService) };
}

const servers: ChildProcess[] = [];

/** A Redis of the test's own, so the test can take it down and bring it back. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const server = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  servers.push(server);
  let output = '';
  for await (const chunk of server.stdout!) {
    output += String(chunk);
    if (output.includes('Ready to accept connections')) break;
  }
  return server;
}

async function stopRedisServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, 'exit');
  server.kill();
  await exited;
}

/** Unlike `once(client, 'ready')`, not cut short by the errors of failed reconnects. */
function becameReady(client: Redis): Promise<void> {
  return new Promise((resolve) => client.once('ready', resolve));
}

async function errorsEmitted(client: Redis, count: number): Promise<void> {
  let seen = 0;
  for await (const _error of on(client, 'error')) {
    if (++seen === count) return;
  }
}

afterEach(async () => {
  await closeApps();
  await Promise.all(servers.splice(0).map(stopRedisServer));
});

describe('RedisService', () => {
  it('closes its connection when the app closes', async () => {
    const { app, redis } = await redisApp();
    expect(await redis.client.ping()).toBe('PONG');

    await closeApp(app);

    expect(redis.client.status).toBe('end');
  });

  it('does not wait for an unreachable Redis when the app closes', async () => {
    const { app, redis } = await redisApp(unreachableRedisUrl);
    await errorsEmitted(redis.client, 1);

    // QUIT would never be answered: a close waiting for it would time the test out.
    await expect(closeApp(app)).resolves.toBeUndefined();
  });

  it('tells whether Redis answers PING in time', async () => {
    const reachable = await redisApp();
    const unreachable = await redisApp(unreachableRedisUrl);
    // connected first: the 1 s budget is then the PING's alone, not a connect under way
    if (reachable.redis.client.status !== 'ready') await becameReady(reachable.redis.client);

    expect(await reachable.redis.ping(1000)).toBe(true);
    expect(await unreachable.redis.ping(1000)).toBe(false);
  });

  it('reports an outage once, however often it reconnects, and the recovery once', async () => {
    const port = await freePort();
    const server = await startRedisServer(port);
    const logger = new RecordingLogger();
    Logger.overrideLogger(logger);
    const redis = new RedisService({ url: `redis://127.0.0.1:${port}` });
    try {
      await becameReady(redis.client);

      await stopRedisServer(server);
      await errorsEmitted(redis.client, 3);
      await startRedisServer(port);
      await becameReady(redis.client);

      expect(logger.entries).toEqual([
        {
          level: 'warn',
          message: expect.stringMatching(/^Redis unavailable: /),
          context: 'RedisService',
        },
        { level: 'log', message: 'Redis reachable again', context: 'RedisService' },
      ]);
    } finally {
      await redis.onApplicationShutdown();
    }
  });
});
