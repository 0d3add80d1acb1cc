import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRule, ruleKey, ruleKeys, type RuleSpec } from '../src/index';

/** Per-key memory (MEMORY USAGE, key name included) after `requests` admitted requests. */
const cases: { label: string; rule: RuleSpec; requests: number; maxBytes: number }[] = [
  {
    label: 'token_bucket',
    rule: { algorithm: 'token_bucket', capacity: 100, refillPerSecond: 1.5 },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'leaky_bucket',
    rule: { algorithm: 'leaky_bucket', capacity: 100, leakPerSecond: 10 },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'fixed_window',
    rule: { algorithm: 'fixed_window', limit: 1000, windowMs: 60_000 },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'fixed-window (calendar month)',
    rule: {
      algorithm: 'fixed_window',
      limit: 1000,
      calendar: { unit: 'month', timeZone: 'Europe/Paris' },
    },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'sliding_window_counter',
    rule: { algorithm: 'sliding_window_counter', limit: 1000, windowMs: 60_000 },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'gcra',
    rule: { algorithm: 'gcra', limit: 100, periodMs: 60_000 },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'sliding_window_log',
    rule: { algorithm: 'sliding_window_log', limit: 1000, windowMs: 60_000 },
    requests: 1,
    maxBytes: 400,
  },
  {
    label: 'sliding_window_log',
    rule: { algorithm: 'sliding_window_log', limit: 1000, windowMs: 60_000 },
    requests: 100,
    maxBytes: 8_000,
  },
  {
    label: 'sliding_window_log',
    rule: { algorithm: 'sliding_window_log', limit: 1000, windowMs: 60_000 },
    requests: 1000,
    maxBytes: 120_000,
  },
];

describe('memory per key (logged for docs/algorithms.md)', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());

  it('stays within a small, bounded size per rule', async () => {
    const rows: string[] = [];
    for (const [i, { label, rule, requests, maxBytes }] of cases.entries()) {
      const key = ruleKey({ prefix: t.prefix, scope: 'api', identifier: `user-${i}`, rule: 'r' });
      const now = 1_800_000_000_000;
      for (let n = 0; n < requests; n++) {
        expect((await checkRule(t.redis, key, rule, { now: now + n })).allowed).toBe(true);
      }
      const sizes: number[] = [];
      for (const stored of ruleKeys(rule, key)) {
        sizes.push(Number(await t.redis.call('MEMORY', 'USAGE', stored, 'SAMPLES', '0')));
      }
      const total = sizes.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(maxBytes);
      rows.push(
        `${label.padEnd(30)} ${String(requests).padStart(5)} req  ${sizes.join(' + ')} = ${total} B`,
      );
    }
    console.log(
      `MEMORY USAGE (key name ${ruleKey({ prefix: t.prefix, scope: 'api', identifier: 'x', rule: 'r' }).length} chars)\n${rows.join('\n')}`,
    );
  });
});
