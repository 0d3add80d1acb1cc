import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyRule, leaseOf, startUs, steps } from '../test/support';
import { LocalLimiter } from './local-limiter';
import { evaluateRule, type RuleState } from './models/composite.model';
import { prepareRuleSet } from './rule-set';
import type { RuleCheck } from './rule-spec';

const key = (rule: string) => `local:{api:u}:${rule}`;

describe('LocalLimiter', () => {
  it('decides like the reference model, step by step', () => {
    fc.assert(
      fc.property(
        anyRule.chain((rule) => fc.tuple(fc.constant(rule), startUs, steps(rule))),
        ([rule, start, sequence]) => {
          const limiter = new LocalLimiter();
          let state: RuleState | undefined;
          let nowUs = start;
          for (const { dtUs, cost } of sequence) {
            nowUs += dtUs;
            const lease = leaseOf(rule);
            const model = evaluateRule(rule, state, nowUs, cost, lease);
            const options = { cost, now: nowUs / 1000, ...(lease && { lease }) };
            expect(limiter.check(key('r'), rule, options)).toEqual(model.decision);
            // the limiter forgets states at their TTL; models.spec proves that changes nothing
            if (model.commit) state = model.commit.state;
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('charges the live rules all together or not at all; candidates on their own', () => {
    const limiter = new LocalLimiter({ clock: () => 1_800_000_000_000 });
    const checks: RuleCheck[] = [
      { key: key('minute'), rule: { algorithm: 'fixed_window', limit: 2, windowMs: 60_000 } },
      { key: key('bucket'), rule: { algorithm: 'token_bucket', capacity: 10, refillPerSecond: 1 } },
      {
        key: key('next'),
        rule: { algorithm: 'gcra', limit: 1, periodMs: 60_000 },
        candidate: true,
      },
    ];
    const results = [1, 2, 3].map(() => limiter.checkRules(checks));
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
    expect(results.map((r) => r.candidatesAllowed)).toEqual([true, false, false]);
    // the bucket was charged twice only: the third request was denied by the window
    expect(results[2]!.rules[1]).toMatchObject({ allowed: true, remaining: 8 });
    expect(results[2]!.retryAfter).toBe(60_000);
    const dry = limiter.checkRules(checks.slice(1), { dryRun: true });
    expect(dry.rules[0]).toMatchObject({ allowed: true, remaining: 7 });
    expect(limiter.check(key('bucket'), checks[1]!.rule, { cost: 0 }).remaining).toBe(8);
  });

  it('forget drops the named states only: those identifiers start afresh', () => {
    const limiter = new LocalLimiter({ clock: () => 1_800_000_000_000 });
    const rule = { algorithm: 'fixed_window', limit: 1, windowMs: 60_000 } as const;
    expect(limiter.check(key('a'), rule).allowed).toBe(true);
    expect(limiter.check(key('b'), rule).allowed).toBe(true);
    limiter.forget([key('a'), key('never-written')]);
    expect(limiter.check(key('a'), rule).allowed).toBe(true);
    expect(limiter.check(key('b'), rule).allowed).toBe(false);
  });

  it('forgets a state when its TTL runs out and keeps at most maxKeys', () => {
    let now = 1_800_000_000_000;
    const limiter = new LocalLimiter({ maxKeys: 3, clock: () => now });
    const rule = { algorithm: 'fixed_window', limit: 1, windowMs: 1000 } as const;
    limiter.check(key('a'), rule);
    expect(limiter.size).toBe(1);
    now += 1000;
    expect(limiter.check(key('a'), rule, { cost: 0 }).remaining).toBe(1);
    expect(limiter.size).toBe(0);
    for (const name of ['a', 'b', 'c', 'd']) limiter.check(key(name), rule);
    expect(limiter.size).toBe(3);
    // the oldest write went first
    expect(limiter.check(key('a'), rule, { cost: 0 }).remaining).toBe(1);
    expect(limiter.check(key('d'), rule, { cost: 0 }).remaining).toBe(0);
  });

  it('reserves, settles and releases in process; records expire on the clock', () => {
    let now = 1_800_000_000_000;
    const limiter = new LocalLimiter({ clock: () => now });
    const set = prepareRuleSet({
      prefix: 'local:',
      scope: 'tnt.pol',
      rules: [
        {
          name: 'tokens',
          rule: { algorithm: 'token_bucket', capacity: 10, refillPerSecond: 0.01 },
        },
        { name: 'inflight', rule: { algorithm: 'concurrency', limit: 1, leaseTtlMs: 60_000 } },
      ],
    });
    const reservation = { ttlMs: 1000 };
    const first = limiter.checkPrepared(set, 'u', 4, { reservation });
    expect(first).toMatchObject({ allowed: true, reservation: { estimate: 4, rules: ['tokens'] } });
    expect(limiter.checkPrepared(set, 'u', 1).allowed).toBe(false);
    expect(limiter.releaseLease(set, 'u', first.lease!.nonce)).toEqual({ released: true });
    expect(limiter.releaseLease(set, 'u', first.lease!.nonce)).toEqual({ released: false });
    const settled = limiter.settleReservation(set, 'u', first.reservation!.nonce, 14);
    expect(settled).toMatchObject({ found: true, rules: [{ charged: 10, remaining: -4 }] });
    expect(limiter.settleReservation(set, 'u', first.reservation!.nonce, 0)).toMatchObject({
      alreadySettled: true,
      actualCost: 14,
    });
    const second = limiter.checkPrepared(set, 'u', 0, { reservation });
    // a peek charges nothing and reserves nothing
    expect(second.reservation).toBeUndefined();
    expect(second.allowed).toBe(false);
    now += 1000;
    expect(limiter.settleReservation(set, 'u', first.reservation!.nonce, 0)).toEqual({
      found: false,
    });
  });
});
