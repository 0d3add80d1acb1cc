import { createTestRedis, type TestRedis } from '@sluice/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRule, evaluateRule, ruleKey, ruleKeys, type RuleState } from '../src/index';
import {
  checkExpiryAndPersist,
  leaseOf,
  ruleArbitraries,
  serverMs,
  startUs,
  steps,
  unique,
} from './support';

/**
 * Random sequences of (time step >= 0, cost) through the Lua script (injected clock) and the
 * reference model: every figure must agree exactly - both round each time figure up to the ms
 * from the same microsecond arithmetic - and every key must expire exactly when the model says.
 */
describe('Lua scripts agree with the reference models', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());

  for (const [name, ruleArb] of Object.entries(ruleArbitraries)) {
    it(`${name}: decisions, figures and TTLs`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          ruleArb.chain((rule) => fc.tuple(fc.constant(rule), startUs, steps(rule))),
          async ([rule, start, sequence]) => {
            const key = ruleKey({
              prefix: t.prefix,
              scope: 'agree',
              identifier: unique('id'),
              rule: 'r',
            });
            let state: RuleState | undefined;
            let nowUs = start;
            for (const { dtUs, cost } of sequence) {
              nowUs += dtUs;
              const lease = leaseOf(rule);
              const model = evaluateRule(rule, state, nowUs, cost, lease);
              const beforeMs = await serverMs(t.redis);
              const actual = await checkRule(t.redis, key, rule, {
                cost,
                now: nowUs / 1000,
                ...(lease && { lease }),
              });
              expect(actual).toEqual(model.decision);
              if (model.commit) {
                const kept = await checkExpiryAndPersist(
                  t.redis,
                  ruleKeys(rule, key),
                  model.commit.ttlMs,
                  beforeMs,
                );
                state = kept ? model.commit.state : undefined;
              }
            }
          },
        ),
        { numRuns: 100 },
      );
    });
  }
});
