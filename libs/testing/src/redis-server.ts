import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import { freePort } from './net';
import { uniquePrefix, type TestRedis } from './redis';

export interface OwnRedisServerOptions {
  /** Default: a free port. */
  port?: number;
  /**
   * Snapshot on `stop()` and load it on `start()`, so the data survives a restart (default:
   * nothing is saved).
   */
  persist?: boolean;
  /** More `redis-server` arguments, e.g. `['--cluster-enabled', 'yes']`. */
  args?: readonly string[];
  /** How long `start()` waits for the server to answer (default 10 s). */
  startTimeoutMs?: number;
}

/** Enough of the server's output to say why it did not start. */
const OUTPUT_TAIL = 4096;
/** SIGKILL when SIGTERM has not ended the server by then. */
const STOP_GRACE_MS = 10_000;

/**
 * A redis-server of the test's own on 127.0.0.1, in a temporary working directory, that the test
 * stops, starts again (same port), pauses and resumes, always by the PID of the process it
 * started. `destroy()` it in afterEach/afterAll; should the test process exit first, the server
 * is killed with it.
 */
export class OwnRedisServer {
  private child: ChildProcess | undefined;
  private output = '';
  private readonly killOnExit = () => this.child?.kill('SIGKILL');

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly options: OwnRedisServerOptions,
  ) {}

  /** A new server, started. */
  static async create(options: OwnRedisServerOptions = {}): Promise<OwnRedisServer> {
    const port = options.port ?? (await freePort());
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-test-redis-'));
    const server = new OwnRedisServer(port, dir, options);
    try {
      await server.start();
    } catch (error) {
      await server.destroy();
      throw error;
    }
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The running server's PID, undefined while it is stopped. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the server (again, after `stop()`); resolves once it answers. */
  async start(): Promise<void> {
    if (this.child) return;
    const persistence = this.options.persist ? ['--save', '3600 1'] : ['--save', ''];
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'no',
        ...persistence,
        ...(this.options.args ?? []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    this.output = '';
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-OUTPUT_TAIL);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    if (child.pid === undefined) {
      // not started (no redis-server on the PATH): the reason comes as an 'error' event
      const [error] = (await once(child, 'error')) as [Error];
      this.child = undefined;
      throw new Error(`could not start redis-server: ${error.message}`);
    }
    process.once('exit', this.killOnExit);
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 10_000);
    const pid = child.pid;
    while (!(await this.answers(pid))) {
      if (child.exitCode !== null || child.signalCode !== null) {
        this.forget();
        throw new Error(`redis-server on port ${this.port} exited:\n${this.output}`);
      }
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(`redis-server on port ${this.port} did not answer:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * SIGTERM (the server saves its snapshot when `persist` is set) and resolves once it has
   * exited; connections are refused until `start()`. SIGKILL if it is still running after 10 s.
   */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      // a paused process would not act on SIGTERM
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    this.forget();
  }

  /** SIGSTOP: connections stay open but nothing is answered, as with a stalled server. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** SIGCONT after `pause()`. */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /**
   * Connections to this server shaped like `createTestRedis` (`cleanup` closes them). Their
   * errors are ignored: the test stops the server on purpose.
   */
  connections(label = 'own'): TestRedis {
    const opened: Redis[] = [];
    const connect = (options: RedisOptions = {}): Redis => {
      const connection = new Redis(this.url, { maxRetriesPerRequest: 1, ...options });
      connection.on('error', () => undefined);
      opened.push(connection);
      return connection;
    };
    return {
      redis: connect(),
      prefix: uniquePrefix(label),
      connect,
      cleanup: async () => {
        for (const connection of opened) connection.disconnect();
      },
    };
  }

  /** Stops the server and deletes its working directory. */
  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }

  private forget(): void {
    this.child = undefined;
    process.off('exit', this.killOnExit);
  }

  /** Whether the server on the port answers, and is the process started here (not another). */
  private async answers(pid: number): Promise<boolean> {
    const probe = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.info('server')).includes(`\r\nprocess_id:${pid}\r\n`);
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  }
}
