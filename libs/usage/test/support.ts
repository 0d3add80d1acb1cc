import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort, OwnRedisServer } from '@sluice/testing';
import type { Cluster, Redis } from 'ioredis';
import type { DecisionEvent } from '../src/index';

const run = promisify(execFile);

/** The start of the current minute: event times near now stay within retention. */
export const BASE_MS = Math.floor(Date.now() / 60_000) * 60_000;
export const BASE_SECOND = BASE_MS / 1000;

/** A plain allowed decision; tests override what they need. */
export function decision(overrides: Partial<DecisionEvent> = {}): DecisionEvent {
  return {
    tenantId: 'tnt_a',
    policy: 'api',
    keyId: 'key_1',
    at: BASE_MS,
    identifier: 'user-1',
    allowed: true,
    reason: 'allowed',
    cost: 1,
    shadowDenied: false,
    candidateDenied: false,
    ...overrides,
  };
}

/** A denial by rule `per-second`. */
export function denial(overrides: Partial<DecisionEvent> = {}): DecisionEvent {
  return decision({ allowed: false, reason: 'rule', deniedBy: 'per-second', ...overrides });
}

/** A `random` that returns the given values in turn, cycling. */
export function sequence(values: readonly number[]): () => number {
  let next = 0;
  return () => values[next++ % values.length]!;
}

/** Every key under `prefix` with its content and expiry, the prefix stripped: Redis state. */
export async function dumpKeys(
  redis: Redis,
  prefix: string,
): Promise<Record<string, { type: string; value: unknown; expireAt: number }>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const dump: Record<string, { type: string; value: unknown; expireAt: number }> = {};
  for (const key of keys.sort()) {
    const type = await redis.type(key);
    let value: unknown;
    // the log stream expires relative to its last write: only whether it expires is stable
    let expireAt = await redis.expiretime(key);
    if (type === 'hash') value = await redis.hgetall(key);
    else if (type === 'zset') value = await redis.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'set') value = (await redis.smembers(key)).sort();
    else if (type === 'stream') {
      value = (await redis.xrange(key, '-', '+')).map(([, fields]) => fields);
      expireAt = expireAt > 0 ? 1 : expireAt;
    } else value = await redis.get(key);
    dump[key.slice(prefix.length)] = { type, value, expireAt };
  }
  return dump;
}

export interface RedisClusterServers {
  readonly ports: number[];
  stop(): Promise<void>;
}

/** Three masters, no replicas, slots spread by `redis-cli --cluster create`. */
export async function startRedisCluster(): Promise<RedisClusterServers> {
  const servers: OwnRedisServer[] = [];
  try {
    for (let i = 0; i < 3; i += 1) {
      const [port, busPort] = [await freePort(), await freePort()];
      servers.push(
        await OwnRedisServer.create({
          port,
          args: [
            '--cluster-enabled',
            'yes',
            '--cluster-port',
            String(busPort),
            '--cluster-config-file',
            `nodes-${port}.conf`,
            '--cluster-node-timeout',
            '5000',
          ],
        }),
      );
    }
    const ports = servers.map((server) => server.port);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await waitForClusterOk(ports);
    return { ports, stop: () => stopAll(servers) };
  } catch (error) {
    await stopAll(servers);
    throw error;
  }
}

async function waitForClusterOk(ports: number[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const states = await Promise.all(
      ports.map(async (port) => {
        const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
        return stdout.includes('cluster_state:ok');
      }),
    );
    if (states.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error('the test cluster did not reach cluster_state:ok');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stopAll(servers: OwnRedisServer[]): Promise<void> {
  await Promise.all(servers.map((server) => server.destroy()));
}

/** Resolves once the client is connected and ready (after a server came up). */
export function whenReady(client: Redis | Cluster): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => client.once('ready', () => resolve()));
}
