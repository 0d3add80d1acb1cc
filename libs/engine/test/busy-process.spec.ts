import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKey, bucket, policy, publish, startEngine, type EngineSetup } from './support';

// The policy's Redis timeout bounds the wait for Redis, not this process' own stalls: when the
// event loop was blocked (a long GC, a starved CPU on a loaded host) past the timeout while the
// reply already arrived, the reply is taken (it was charged) rather than the fail mode answering.

let t: TestRedis;
let setup: EngineSetup;
beforeEach(async () => {
  t = createTestRedis('engine-busy');
  setup = await startEngine(t);
  await publish(t, 'tnt_a', [
    policy('api', { id: 'pol_api', redisTimeoutMs: 20, rules: [bucket('burst', 10)] }),
  ]);
});
afterEach(async () => {
  await setup.engine.stop();
  await t.cleanup();
});

/** Blocks this process' event loop for `ms`, as a long synchronous task would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: neither timers nor sockets are served meanwhile
  }
}

describe('a reply that arrived while this process was busy', () => {
  it('decides the check in Redis, not by the fail mode, and the charge it made counts', async () => {
    const { record } = await apiKey(t, 'tnt_a');
    await setup.engine.check({ key: record, policy: 'api', identifier: 'warm' });
    for (let i = 0; i < 5; i += 1) {
      const pending = setup.engine.check({ key: record, policy: 'api', identifier: 'u' });
      // the command leaves, Redis answers within the block (500 ms: room for a Redis server
      // that shares a loaded machine's cores); the 20 ms timer is due long before its end
      await new Promise((resolve) => setImmediate(resolve));
      block(500);
      const result = await pending;
      expect(result.reason).toBe('allowed');
      expect(result.remaining).toBe(9 - i);
    }
    expect(setup.engine.breakers.stats().openings).toBe(0);
  });
});
