import {
  compileTenant,
  generateApiKeySecret,
  publishTenant,
  putApiKey,
  tenantKey,
  type ApiKeyRecord,
  type CompiledTenant,
  type PolicyInput,
  type TenantConfigInput,
} from '@sluice/policy';
import type { TestRedis } from '@sluice/testing';
import type { DecisionEvent } from '@sluice/usage';
import type { Redis, RedisOptions } from 'ioredis';
import {
  DecisionEngine,
  engineRedisOptions,
  type DecisionEngineOptions,
  type SettleEvent,
} from '../src/index';

/** The recorder the engine is given in tests: keeps every event. */
export class EventLog {
  readonly events: DecisionEvent[] = [];
  readonly settles: SettleEvent[] = [];
  record(event: DecisionEvent): void {
    this.events.push(event);
  }
  recordSettle(event: SettleEvent): void {
    this.settles.push(event);
  }
}

/** A token bucket that refills so slowly that no test sees it refill. */
export const bucket = (name: string, capacity: number) => ({
  name,
  algorithm: 'token_bucket' as const,
  capacity,
  refillPerSecond: 0.001,
});

/**
 * A policy with a Redis timeout far above any test's latency: the production default (50 ms) on a
 * loaded CI machine would now and then answer fail-open and charge nothing. Fail-mode tests set
 * their own timeout.
 */
export const policy = (name: string, over: Partial<PolicyInput> = {}): PolicyInput => ({
  id: `pol_${name.replace(/[^A-Za-z0-9_-]/g, '_')}_${Math.random().toString(36).slice(2, 8)}`,
  name,
  redisTimeoutMs: 1000,
  rules: [bucket('burst', 5)],
  ...over,
});

export async function publish(
  t: TestRedis,
  tenantId: string,
  policies: PolicyInput[],
  over: Partial<TenantConfigInput> = {},
  redis: Redis = t.redis,
): Promise<CompiledTenant> {
  const input = { tenantId, slug: 'acme', status: 'active' as const, policies, ...over };
  return publishTenant(redis, t.prefix, compileTenant(input));
}

/** Stores a tenant version as a publish would, but sends no change message (a lost message). */
export async function publishSilently(
  t: TestRedis,
  tenantId: string,
  version: number,
  policies: PolicyInput[],
  over: Partial<TenantConfigInput> = {},
): Promise<void> {
  const input = { tenantId, slug: 'acme', status: 'active' as const, policies, ...over };
  const { version: _version, ...config } = compileTenant(input);
  await t.redis.hset(tenantKey(t.prefix, tenantId), {
    version: String(version),
    publishedAt: String(Date.now()),
    config: JSON.stringify(config),
  });
}

/** Stores a key for `tenantId` and returns its secret. */
export async function apiKey(
  t: TestRedis,
  tenantId: string,
  over: Partial<ApiKeyRecord> = {},
  redis: Redis = t.redis,
): Promise<{ secret: string; record: ApiKeyRecord }> {
  const secret = generateApiKeySecret();
  const record: ApiKeyRecord = {
    id: `key_${Math.random().toString(36).slice(2, 10)}`,
    tenantId,
    policies: null,
    scopes: ['check'],
    ...over,
  };
  await putApiKey(redis, t.prefix, secret, record);
  return { secret, record };
}

/**
 * Cache tuning without background re-reads during a test (the defaults re-read keys every 1 s and
 * tenant versions every 2 s): a test counting the commands sent sees only its own, however slow.
 */
export const QUIET_CACHE = { keyRecheckMs: 600_000, tenantRecheckMs: 600_000 } as const;

/** Resolves once the connection is ready (commands are refused before: no offline queue). */
export async function ready(redis: Redis): Promise<Redis> {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

/** Every command name sent on `redis` from now on (ioredis sends them all through sendCommand). */
export function recordCommands(redis: Redis): string[] {
  const names: string[] = [];
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
    names.push(command.name);
    return send(command, stream);
  };
  return names;
}

export interface EngineSetup {
  engine: DecisionEngine;
  log: EventLog;
  /** The engine's command connection (engineRedisOptions). */
  redis: Redis;
  subscriber: Redis;
}

/** An engine on the test's Redis and prefix with its own connections, started. */
export async function startEngine(
  t: TestRedis,
  over: Partial<DecisionEngineOptions> = {},
  connect: (options: RedisOptions) => Redis = (options) => t.connect(options),
): Promise<EngineSetup> {
  const log = new EventLog();
  const redis = await ready(connect(engineRedisOptions));
  const subscriber = connect({});
  const engine = new DecisionEngine({
    redis,
    subscriber,
    prefix: t.prefix,
    recorder: log,
    ...over,
  });
  await engine.start();
  return { engine, log, redis, subscriber };
}

/** Polls `condition` until it holds (the test's own timeout bounds the wait). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  stepMs = 20,
): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, stepMs));
}
