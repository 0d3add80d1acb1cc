/**
 * What `prepareRuleSet` + `checkPrepared` save per request against building keys with `ruleKey`
 * and calling `checkRules` (which validates every rule again), for a four-rule policy:
 * `npx vitest bench --run test/prepared.bench.ts` (figures in the report; no assertions).
 */
import { createTestRedis } from '@sluice/testing';
import { afterAll, bench, describe } from 'vitest';
import {
  checkPrepared,
  checkRules,
  prepareChecks,
  prepareRuleSet,
  ruleKey,
  ruleKeys,
  ruleSetChecks,
  type RuleCheck,
  type RuleSetRule,
} from '../src/index';

const t = createTestRedis('alg-bench');
afterAll(() => t.cleanup());

const prefix = `${t.prefix}rl:`;
const scope = 'tnt_bench.pol_bench';
const rules: RuleSetRule[] = [
  { name: 'burst', rule: { algorithm: 'token_bucket', capacity: 1e6, refillPerSecond: 1e5 } },
  { name: 'rate', rule: { algorithm: 'gcra', limit: 1e6, periodMs: 1000 } },
  { name: 'minute', rule: { algorithm: 'sliding_window_counter', limit: 1e9, windowMs: 60_000 } },
  {
    name: 'c-next',
    rule: { algorithm: 'fixed_window', limit: 1e9, windowMs: 86_400_000 },
    candidate: true,
  },
];
const set = prepareRuleSet({ prefix, scope, rules });

/** What the engine did per request before: a ruleKey per rule, then checkRules' validation. */
function unpreparedChecks(identifier: string): RuleCheck[] {
  return rules.map(({ name, rule, candidate }) => ({
    key: ruleKey({ prefix, scope, identifier, rule: name }),
    rule,
    cost: 1,
    candidate: candidate ?? false,
  }));
}

let n = 0;
/** 1000 identifiers per label: each round-trip case creates its own keys, then reuses them. */
const nextIdentifier = (label = 'user') => `${label}-${(n = (n + 1) % 1000)}`;

describe('in process: keys and validated checks of one request', () => {
  bench('ruleKey per rule + prepareChecks (before)', () => {
    const checks = prepareChecks(unpreparedChecks(nextIdentifier()));
    checks.flatMap((check) => ruleKeys(check.rule, check.key));
  });
  bench('ruleSetChecks of a prepared set (after)', () => {
    const checks = ruleSetChecks(set, nextIdentifier(), 1);
    checks.flatMap((check) => ruleKeys(check.rule, check.key));
  });
});

describe('round trip to Redis: one composite call', () => {
  bench('checkRules (before)', async () => {
    await checkRules(t.redis, unpreparedChecks(nextIdentifier('rules')));
  });
  bench('checkPrepared (after)', async () => {
    await checkPrepared(t.redis, set, nextIdentifier('prepared'), 1);
  });
});
