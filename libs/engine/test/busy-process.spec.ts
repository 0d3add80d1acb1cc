import { spawnSync } from 'node:child_process';
import { ruleKey } from '@sluice/algorithms';
import { createTestRedis, testRedisUrl, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKey, bucket, policy, publish, startEngine, type EngineSetup } from './support';

// The policy's Redis timeout bounds the wait for Redis, not this process' own stalls: when the
// event loop was blocked (a long GC, a starved CPU on a loaded host) past the timeout while the
// reply already arrived, the reply is taken (it was charged) rather than the fail mode answering.

/** The most a policy allows: far above Redis' own latency, even on a loaded machine. */
const TIMEOUT_MS = 1000;

let t: TestRedis;
let setup: EngineSetup;
beforeEach(async () => {
  t = createTestRedis('engine-busy');
  setup = await startEngine(t);
  await publish(t, 'tnt_a', [
    policy('api', { id: 'pol_api', redisTimeoutMs: TIMEOUT_MS, rules: [bucket('burst', 10)] }),
  ]);
});
afterEach(async () => {
  await setup.engine.stop();
  await t.cleanup();
});

/** A command sent by another process, so it is answered while this one's event loop is blocked. */
function redisCli(...args: string[]): string {
  const run = spawnSync('redis-cli', ['-u', testRedisUrl(), ...args], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (run.status !== 0) {
    throw new Error(`redis-cli ${args.join(' ')} failed: ${run.error?.message ?? run.stderr}`);
  }
  return run.stdout.trim();
}

/**
 * Blocks this process' event loop, as a long synchronous task would (neither timers nor sockets
 * are served meanwhile), for at least `ms` and until `done()` holds.
 */
function blockUntil(ms: number, done: () => boolean): void {
  const start = performance.now();
  while (performance.now() < start + ms || !done()) {
    if (performance.now() > start + 30_000) throw new Error('blocked 30 s: done() never held');
  }
}

describe('a reply that arrived while this process was busy', () => {
  it('decides the check in Redis, not by the fail mode, and the charge it made counts', async () => {
    const { record } = await apiKey(t, 'tnt_a');
    await setup.engine.check({ key: record, policy: 'api', identifier: 'warm' });
    const bucketKey = ruleKey({
      prefix: `${t.prefix}rl:`,
      scope: 'tnt_a.pol_api',
      identifier: 'u',
      rule: 'burst',
      state: { algorithm: 'token_bucket', capacity: 1, refillPerSecond: 1 },
    });
    for (let i = 0; i < 5; i += 1) {
      const pending = setup.engine.check({ key: record, policy: 'api', identifier: 'u' });
      // the command has left; then the process stays busy past the timeout, and until Redis
      // has run the script (its charge is visible to another client) and written its reply:
      // a later connection's command is only read after the replies of earlier ones are out
      await new Promise((resolve) => setImmediate(resolve));
      blockUntil(TIMEOUT_MS + 100, () => {
        const tokens = redisCli('HGET', bucketKey, 'tokens');
        return tokens !== '' && Number(tokens) < 9.5 - i;
      });
      expect(redisCli('PING')).toBe('PONG');
      // the timer is due before the reply is read, yet the reply decides
      const result = await pending;
      expect(result.reason).toBe('allowed');
      expect(result.remaining).toBe(9 - i);
    }
    expect(setup.engine.breakers.stats().openings).toBe(0);
  });
});
