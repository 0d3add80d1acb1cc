import { createHash } from 'node:crypto';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  checkRule,
  commandName,
  LIB_VERSION,
  loadScripts,
  registerScripts,
  ruleKey,
  type ScriptName,
} from '../src/index';

const SCRIPTS: ScriptName[] = [
  'check_rules',
  'concurrency',
  'fixed_window',
  'gcra',
  'leaky_bucket',
  'release_lease',
  'settle_reservation',
  'sliding_window_counter',
  'sliding_window_log',
  'token_bucket',
];

describe('script registration and the Redis clock', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());

  it('defines every script once per connection under a versioned name', () => {
    const redis = t.connect();
    const define = vi.spyOn(redis, 'defineCommand');
    registerScripts(redis);
    registerScripts(redis);
    const scripts = loadScripts();
    expect(define).toHaveBeenCalledTimes(scripts.length);
    expect(LIB_VERSION).toBe('0.1.0');
    expect(commandName('token_bucket')).toBe('sluice_token_bucket_v0_1_0');
    expect(commandName('check_rules', '1.2.0-rc.1')).toBe('sluice_check_rules_v1_2_0_rc_1');
    expect(define.mock.calls.map(([name]) => name).sort()).toEqual(
      SCRIPTS.map((name) => commandName(name)),
    );
  });

  it('runs by EVALSHA: the resolved source is cached on the server after a call', async () => {
    const key = ruleKey({ prefix: t.prefix, scope: 'reg', identifier: 'sha', rule: 'r' });
    await checkRule(t.redis, key, { algorithm: 'gcra', limit: 5, periodMs: 1000 });
    const gcra = loadScripts().find((script) => script.name === 'gcra')!;
    const sha = createHash('sha1').update(gcra.lua).digest('hex');
    expect(await t.redis.script('EXISTS', sha)).toEqual([1]);
  });

  it('without an injected now the Redis clock (TIME) decides', async () => {
    const key = ruleKey({ prefix: t.prefix, scope: 'reg', identifier: 'clock', rule: 'r' });
    const [seconds] = await t.redis.time();
    const before = Number(seconds) * 1000;
    const decision = await checkRule(t.redis, key, {
      algorithm: 'fixed_window',
      limit: 3,
      windowMs: 60_000,
    });
    const start = Number(await t.redis.hget(key, 'start')) / 1000;
    expect(start % 60_000).toBe(0);
    expect(before - start).toBeLessThan(60_000 + 1000);
    expect(decision.resetAt).toBe(start + 60_000);
  });
});
