import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnRedisServer } from './redis-server';

const servers: OwnRedisServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.destroy()));
});

async function create(options?: Parameters<typeof OwnRedisServer.create>[0]) {
  const server = await OwnRedisServer.create(options);
  servers.push(server);
  return server;
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('OwnRedisServer', () => {
  it('stops and starts again on the same port, keeping its data when it persists', async () => {
    const server = await create({ persist: true });
    const { redis, prefix, cleanup } = server.connections('spec');
    await redis.set(`${prefix}kept`, '1');
    const pid = server.pid!;

    await server.stop();
    expect(isRunning(pid)).toBe(false);
    expect(server.pid).toBeUndefined();
    const refused = new Redis(server.url, { lazyConnect: true, retryStrategy: () => null });
    refused.on('error', () => undefined);
    await expect(refused.connect()).rejects.toThrow();

    await server.start();
    expect(server.pid).not.toBe(pid);
    const again = new Redis(server.url);
    expect(await again.get(`${prefix}kept`)).toBe('1');
    again.disconnect();
    await cleanup();
  });

  it('starts empty again without persistence', async () => {
    const server = await create();
    const { redis, cleanup } = server.connections();
    await redis.set('k', '1');
    await server.stop();
    await server.start();
    const again = new Redis(server.url);
    expect(await again.get('k')).toBeNull();
    again.disconnect();
    await cleanup();
  });

  it('pauses: the connection stays open but nothing is answered until it resumes', async () => {
    const server = await create();
    const { connect, cleanup } = server.connections();
    const client = connect();
    expect(await client.ping()).toBe('PONG');

    server.pause();
    let answered = false;
    const held = client.ping().then((reply) => {
      answered = true;
      return reply;
    });
    // a stopped process answers nothing, however long this waits (a slow machine only waits
    // longer); the connection stays up
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    expect(client.status).toBe('ready');
    server.resume();
    expect(await held).toBe('PONG');
    await cleanup();
  });

  it('says why it could not start', async () => {
    const taken = await create();
    await expect(OwnRedisServer.create({ port: taken.port })).rejects.toThrow(/exited/);
  });

  it('passes its arguments to redis-server', async () => {
    const server = await create({ args: ['--maxmemory', '12345678'] });
    const client = new Redis(server.url);
    expect(await client.config('GET', 'maxmemory')).toEqual(['maxmemory', '12345678']);
    client.disconnect();
  });
});
