import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import { SetupError } from './log';
import { waitFor } from './net';

export type RedisSource = 'env' | 'local' | 'spawned';

export interface RedisServer {
  readonly source: RedisSource;
  readonly url: string;
  /** Stops the redis-server this tool spawned; a no-op for servers found running. */
  stop(): Promise<void>;
}

export interface RedisOptions {
  env: NodeJS.ProcessEnv;
  /** Folder for a spawned redis-server's working directory (`.data/redis` for the demo). */
  dataDir: string;
  /** Where to look for an already running server (default redis://127.0.0.1:6379). */
  localUrl?: string;
  /** Keep snapshots of a spawned server (the demo) or nothing (tests). */
  persist: boolean;
}

export const REDIS_MISSING = [
  'Redis is required and none was found.',
  'Set REDIS_URL to a running server, start one on 127.0.0.1:6379,',
  'install redis-server (Debian/Ubuntu: apt-get install -y redis-server, macOS: brew install redis)',
  'so it can be started here, or run: docker compose up -d redis',
].join('\n  ');

/** REDIS_URL when set; otherwise 127.0.0.1:6379 if it answers; otherwise a `redis-server` from PATH. */
export async function resolveRedis(options: RedisOptions): Promise<RedisServer> {
  const fromEnv = options.env['REDIS_URL'];
  if (fromEnv) {
    if (!(await pings(fromEnv))) throw new SetupError(`REDIS_URL=${fromEnv} does not answer PING`);
    return { source: 'env', url: fromEnv, stop: async () => undefined };
  }
  const localUrl = options.localUrl ?? 'redis://127.0.0.1:6379';
  if (await pings(localUrl)) return { source: 'local', url: localUrl, stop: async () => undefined };
  const binary = findOnPath('redis-server', options.env['PATH'] ?? '');
  if (!binary) throw new SetupError(REDIS_MISSING);
  return spawnRedis(binary, options);
}

export async function pings(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

async function spawnRedis(binary: string, options: RedisOptions): Promise<RedisServer> {
  const port = Number(options.env['SLUICE_REDIS_PORT'] ?? 6390);
  await mkdir(options.dataDir, { recursive: true });
  const persistence = options.persist
    ? ['--save', '60 1000', '--appendonly', 'no']
    : ['--save', '', '--appendonly', 'no'];
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', options.dataDir, ...persistence],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `redis://127.0.0.1:${port}`;
  try {
    await waitFor(
      `redis-server on port ${port}`,
      async () => {
        if (child.exitCode !== null) throw new SetupError(`redis-server exited: ${stderr.trim()}`);
        return pings(url, 300);
      },
      10_000,
    );
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return {
    source: 'spawned',
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
