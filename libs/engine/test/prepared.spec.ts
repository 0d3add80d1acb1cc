import * as algorithms from '@sluice/algorithms';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiKey, bucket, policy, publish, startEngine, until, type EngineSetup } from './support';

// the engine's own entry points, observed (they still run): which one decides, how often rules
// are validated
vi.mock('@sluice/algorithms', async (importOriginal) => {
  const actual = await importOriginal<typeof algorithms>();
  return {
    ...actual,
    prepareRuleSet: vi.fn(actual.prepareRuleSet),
    checkRules: vi.fn(actual.checkRules),
  };
});

let t: TestRedis;
let setup: EngineSetup;
beforeEach(async () => {
  t = createTestRedis('engine-prepared');
  setup = await startEngine(t);
  vi.mocked(algorithms.prepareRuleSet).mockClear();
});
afterEach(async () => {
  await setup.engine.stop();
  await t.cleanup();
});

describe('rules validated once per compiled policy and override', () => {
  it('prepares each policy + override once, then only the request is validated per check', async () => {
    const api = () =>
      policy('api', {
        rules: [bucket('burst', 100)],
        candidateRules: [bucket('next', 50)],
        overrides: [{ id: 'ovr_vip', identifier: 'vip_*', rules: { burst: { capacity: 500 } } }],
      });
    await publish(t, 'tnt_a', [api()]);
    const { record } = await apiKey(t, 'tnt_a', { scopes: ['admin'] });
    const check = (identifier: string) =>
      setup.engine.check({ key: record, policy: 'api', identifier });

    for (const identifier of ['a', 'b', 'c']) await check(identifier);
    await setup.engine.inspect({ key: record, policy: 'api', identifier: 'd' });
    await setup.engine.reset({ key: record, policy: 'api', identifier: 'a' });
    expect(algorithms.prepareRuleSet).toHaveBeenCalledTimes(1);

    expect((await check('vip_1')).limit).toBe(500);
    expect((await check('vip_2')).limit).toBe(500);
    expect(algorithms.prepareRuleSet).toHaveBeenCalledTimes(2);
    expect(algorithms.checkRules).not.toHaveBeenCalled();

    // a new version is a new compiled policy: prepared again, once
    await publish(t, 'tnt_a', [api()]);
    await until(async () => {
      await check('a');
      return vi.mocked(algorithms.prepareRuleSet).mock.calls.length === 3;
    });
    await check('b');
    expect(algorithms.prepareRuleSet).toHaveBeenCalledTimes(3);
  });
});
