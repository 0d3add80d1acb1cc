import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPrepared,
  checkRule,
  identifierHash,
  newNonce,
  prepareRuleSet,
  ruleKey,
  ruleKeys,
  type AnyRuleSpec,
} from '../src/index';
import { reservationKey } from '../src/rule-set';

/**
 * Per-key memory (MEMORY USAGE, key name included) after `requests` admitted requests. Rates are
 * slow: the keys' TTLs run on Redis' real clock, and a key must still be there when measured.
 */
const cases: { label: string; rule: AnyRuleSpec; requests: number; maxBytes: number }[] = [
  {
    label: 'token_bucket',
    rule: { algorithm: 'token_bucket', capacity: 100, refillPerSecond: 0.01 },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'leaky_bucket',
    rule: { algorithm: 'leaky_bucket', capacity: 100, leakPerSecond: 0.01 },
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
    rule: { algorithm: 'gcra', limit: 100, periodMs: 86_400_000 },
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
  {
    label: 'concurrency',
    rule: { algorithm: 'concurrency', limit: 1000, leaseTtlMs: 60_000 },
    requests: 1,
    maxBytes: 200,
  },
  {
    label: 'concurrency',
    rule: { algorithm: 'concurrency', limit: 1000, leaseTtlMs: 60_000 },
    requests: 100,
    maxBytes: 8_000,
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
        const options = { now: now + n, lease: newNonce() };
        expect((await checkRule(t.redis, key, rule, options)).allowed).toBe(true);
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

  it('a reservation record holds one short receipt per rule', async () => {
    const set = prepareRuleSet({
      prefix: t.prefix,
      scope: 'tnt.pol',
      rules: [
        {
          name: 'tokens',
          rule: { algorithm: 'token_bucket', capacity: 100_000, refillPerSecond: 50 },
        },
        {
          name: 'monthly',
          rule: {
            algorithm: 'fixed_window',
            limit: 1e6,
            calendar: { unit: 'month', timeZone: 'Europe/Paris' },
          },
        },
        {
          name: 'minute',
          rule: { algorithm: 'sliding_window_log', limit: 1000, windowMs: 60_000 },
        },
        { name: 'inflight', rule: { algorithm: 'concurrency', limit: 5, leaseTtlMs: 60_000 } },
      ],
    });
    const decision = await checkPrepared(t.redis, set, 'user-r', 500, {
      now: 1_800_000_000_000,
      reservation: { ttlMs: 600_000 },
    });
    const key = reservationKey(set, identifierHash('user-r'), decision.reservation!.nonce);
    const bytes = Number(await t.redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    expect(bytes).toBeLessThanOrEqual(1024);
    console.log(`reservation record (3 receipts, key ${key.length} chars): ${bytes} B`);
  });
});
