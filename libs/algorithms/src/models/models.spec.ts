import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capacityOf, leaseOf, ruleArbitraries, startUs, steps } from '../../test/support';
import { RETRY_NEVER } from '../decision';
import type { AnyRuleSpec } from '../rule-spec';
import { evaluateRule, type RuleState } from './composite.model';

/** A cost the rule can never admit (a concurrency rule takes one slot whatever the cost). */
const impossible = (rule: AnyRuleSpec, cost: number): boolean =>
  rule.algorithm !== 'concurrency' && cost > capacityOf(rule);

/** Drives a random sequence through a model, calling `visit` before each step's commit. */
function drive(
  visit: (
    state: RuleState | undefined,
    rule: AnyRuleSpec,
    nowUs: number,
    cost: number,
    result: ReturnType<typeof evaluateRule>,
  ) => void,
) {
  return fc.property(
    fc
      .oneof(...Object.values(ruleArbitraries))
      .chain((rule) => fc.tuple(fc.constant(rule), startUs, steps(rule))),
    ([rule, start, sequence]) => {
      let state: RuleState | undefined;
      let nowUs = start;
      for (const { dtUs, cost } of sequence) {
        nowUs += dtUs;
        const result = evaluateRule(rule, state, nowUs, cost, leaseOf(rule));
        visit(state, rule, nowUs, cost, result);
        if (result.commit) state = result.commit.state;
      }
    },
  );
}

describe('reference models', () => {
  it('retryAfter is exact: the cost passes after it and not 1 ms sooner', () => {
    fc.assert(
      drive((state, rule, nowUs, cost, { decision }) => {
        if (decision.allowed) {
          expect(decision.retryAfter).toBe(0);
          return;
        }
        if (impossible(rule, cost)) {
          expect(decision.retryAfter).toBe(RETRY_NEVER);
          return;
        }
        const retryUs = decision.retryAfter * 1000;
        const lease = leaseOf(rule);
        expect(decision.retryAfter).toBeGreaterThan(0);
        expect(evaluateRule(rule, state, nowUs + retryUs, cost, lease).decision.allowed).toBe(true);
        expect(
          evaluateRule(rule, state, nowUs + retryUs - 1000, cost, lease).decision.allowed,
        ).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('retryAfter is exact where the rate is not exact in binary (float error)', () => {
    // 12 tokens at 49.999999999999964/s: after 2, a cost of 11 lacks one token, 20 ms away;
    // the closed form gives 20000.000000000015 µs, which rounded up would say 21 ms
    const rule = {
      algorithm: 'token_bucket',
      capacity: 12,
      refillPerSecond: 49.999999999999964,
    } as const;
    const now = 1_743_285_600_000_000;
    const first = evaluateRule(rule, undefined, now, 2);
    const denied = evaluateRule(rule, first.commit?.state, now, 11);
    expect(denied.decision).toMatchObject({ allowed: false, retryAfter: 20 });
    expect(evaluateRule(rule, first.commit?.state, now + 20_000, 11).decision.allowed).toBe(true);
    expect(evaluateRule(rule, first.commit?.state, now + 19_000, 11).decision.allowed).toBe(false);
  });

  it('expiry never hands back capacity early: at the TTL the state equals no state', () => {
    fc.assert(
      drive((_state, rule, nowUs, _cost, { commit }) => {
        if (!commit) return;
        const expiresUs = nowUs + commit.ttlMs * 1000;
        for (const probe of [0, 1, capacityOf(rule)]) {
          const lease = leaseOf(rule);
          expect(evaluateRule(rule, commit.state, expiresUs, probe, lease).decision).toEqual(
            evaluateRule(rule, undefined, expiresUs, probe, lease).decision,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('remaining and resetAt describe the state the decision leaves', () => {
    fc.assert(
      drive((_state, rule, nowUs, cost, { decision, commit }) => {
        const nowMs = Math.ceil(nowUs / 1000);
        expect(decision.resetAt).toBeGreaterThanOrEqual(nowMs);
        expect(decision.remaining).toBeLessThanOrEqual(capacityOf(rule));
        if (commit) expect(commit.ttlMs).toBeGreaterThanOrEqual(decision.resetAt - nowMs);
        if (decision.allowed && cost > 0) {
          // a peek right after sees what this decision left
          const peek = evaluateRule(rule, commit?.state, nowUs, 0).decision;
          expect(peek.remaining).toBe(decision.remaining);
          expect(peek.resetAt).toBe(decision.resetAt);
        }
      }),
      { numRuns: 200 },
    );
  });
});
