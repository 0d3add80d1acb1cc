import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, uniquePrefix, type TestRedis } from '@sluice/testing';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * A redis-server of the test's own on a free port, stopped and started again by PID. It
 * snapshots on shutdown (SIGTERM) and loads the snapshot on start, so data survives a restart.
 */
export class OwnRedisServer {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async create(): Promise<OwnRedisServer> {
    const server = new OwnRedisServer(
      await freePort(),
      await mkdtemp(path.join(tmpdir(), 'engine-redis-')),
    );
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '3600 1'],
      { stdio: 'ignore' },
    );
    this.child = child;
    while (!(await this.pings())) {
      if (child.exitCode !== null) throw new Error(`redis-server on ${this.port} exited`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async pings(): Promise<boolean> {
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  }

  /** SIGTERM to this server's PID; resolves when it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** Connections to this server in the shape of `createTestRedis` (cleanup closes them). */
  connections(): TestRedis {
    const opened: Redis[] = [];
    const connect = (options: RedisOptions = {}) => {
      const connection = new Redis(this.url, { maxRetriesPerRequest: 1, ...options });
      // the server is stopped on purpose: reconnection errors are expected, not failures
      connection.on('error', () => undefined);
      opened.push(connection);
      return connection;
    };
    return {
      redis: connect(),
      prefix: uniquePrefix('engine-own'),
      connect,
      cleanup: async () => {
        for (const connection of opened) connection.disconnect();
      },
    };
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
