import { createTestRedis, type TestRedis } from '@sluice/testing';
import { readSeconds, UsageRecorder } from '@sluice/usage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiKey, bucket, policy, publish, startEngine, type EngineSetup } from './support';

let t: TestRedis;
let setup: EngineSetup;
let recorder: UsageRecorder;
beforeEach(async () => {
  t = createTestRedis('engine-usage');
  recorder = new UsageRecorder({ redis: t.connect(), prefix: t.prefix });
  setup = await startEngine(t, { recorder });
});
afterEach(async () => {
  await setup.engine.stop();
  await recorder.stop();
  await t.cleanup();
});

describe('usage accounting through the UsageRecorder', () => {
  it("counts the engine's decisions per second by outcome and reason", async () => {
    await publish(t, 'tnt_a', [policy('api', { rules: [bucket('burst', 2)] })]);
    const { record } = await apiKey(t, 'tnt_a');
    const from = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 3; i += 1) {
      await setup.engine.check({ key: record, policy: 'api', identifier: 'u' });
    }
    await setup.engine.check({ key: record, policy: 'api', identifier: 'u', dryRun: true });
    await recorder.flush();
    // every second the checks may have taken, however long that was
    const to = Math.floor(Date.now() / 1000);
    const rows = await readSeconds(t.redis, t.prefix, 'tnt_a', 'api', from, to);
    const total = rows.reduce(
      (sum, row) => ({
        allowed: sum.allowed + row.allowed,
        denied: sum.denied + row.denied,
        rule: sum.rule + (row.deniedByReason['rule'] ?? 0),
      }),
      { allowed: 0, denied: 0, rule: 0 },
    );
    expect(total).toEqual({ allowed: 2, denied: 1, rule: 1 });
  });
});
