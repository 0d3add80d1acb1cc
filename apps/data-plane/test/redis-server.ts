import { freePort, uniquePrefix, type TestRedis } from '@sluice/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * A redis-server of the test's own on a free port, stopped, started, paused and resumed by its
 * PID. It snapshots on SIGTERM and loads the snapshot on start, so its data survives a restart.
 */
export class OwnRedis {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<OwnRedis> {
    const server = new OwnRedis(await freePort(), await mkdtemp(path.join(tmpdir(), 'dp-redis-')));
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server again on the same port (with the data it saved when stopped). */
  async restart(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '3600 1'],
      { stdio: 'ignore' },
    );
    this.child = child;
    while (!(await this.answersPing())) {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${this.port} exited`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async answersPing(): Promise<boolean> {
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

  /** SIGTERM: the server saves and exits, connections are refused until `restart`. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }

  /** SIGSTOP: connections stay open but nothing is answered, as with a stalled server. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Connections to this server shaped like `createTestRedis` (cleanup closes them). */
  connections(): TestRedis {
    const opened: Redis[] = [];
    const connect = (options: RedisOptions = {}) => {
      const connection = new Redis(this.url, { maxRetriesPerRequest: 1, ...options });
      // the server is stopped on purpose: reconnection errors are expected
      connection.on('error', () => undefined);
      opened.push(connection);
      return connection;
    };
    return {
      redis: connect(),
      prefix: uniquePrefix('dp-own'),
      connect,
      cleanup: async () => {
        for (const connection of opened) connection.disconnect();
      },
    };
  }

  async destroy(): Promise<void> {
    this.resume();
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
