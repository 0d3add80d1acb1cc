import { createTestRedis, type TestRedis } from '@sluice/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPrepared,
  checkRules,
  DeadlineExceededError,
  evaluateChecks,
  identifierHash,
  leaseId,
  newNonce,
  prepareChecks,
  prepareRuleSet,
  ruleKey,
  ruleKeys,
  type AnyRuleSpec,
  type CompositeDecision,
  type PreparedLease,
  type RuleCheck,
  type RuleState,
} from '../src/index';
import { anyRule, checkExpiryAndPersist, serverMs, snapshot, startUs, unique } from './support';

describe('checkRules (composite script)', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg');
  });
  afterAll(() => t.cleanup());

  const keyOf = (identifier: string, rule: string, state?: AnyRuleSpec): string =>
    ruleKey({ prefix: t.prefix, scope: 'policy', identifier, rule, state });

  it(
    'agrees with the model, all-or-nothing per group, prepared or not; a denied group or a passed deadline writes nothing',
    { timeout: 60_000 },
    async () => {
      const scenario = fc
        .array(
          fc
            .record({ rule: anyRule, candidate: fc.boolean() })
            // a concurrency rule cannot be a candidate
            .map(({ rule, candidate }) => ({
              rule,
              candidate: candidate && rule.algorithm !== 'concurrency',
            })),
          { minLength: 1, maxLength: 3 },
        )
        .chain((rules) =>
          fc.tuple(
            fc.constant(rules),
            startUs,
            fc.array(
              fc.record({
                dtUs: fc.oneof(
                  fc.constant(0),
                  fc.integer({ min: 0, max: 5_000 }),
                  fc.integer({ min: 0, max: 90_000_000 }),
                ),
                costs: fc.array(fc.integer({ min: 0, max: 14 }), {
                  minLength: rules.length,
                  maxLength: rules.length,
                }),
                dryRun: fc.nat(9).map((n) => n === 0),
                viaPrepared: fc.boolean(),
                // µs from now; below 0 the script starts after its deadline
                deadlineUs: fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
              }),
              { minLength: 1, maxLength: 40 },
            ),
          ),
        );
      await fc.assert(
        fc.asyncProperty(scenario, async ([rules, start, sequence]) => {
          const identifier = unique('id');
          const set = prepareRuleSet({
            prefix: t.prefix,
            scope: 'policy',
            rules: rules.map(({ rule, candidate }, i) => ({ name: `r${i}`, rule, candidate })),
          });
          const states = new Map<string, RuleState>();
          let nowUs = start;
          for (const { dtUs, costs, dryRun, viaPrepared, deadlineUs } of sequence) {
            nowUs += dtUs;
            const checks: RuleCheck[] = rules.map(({ rule, candidate }, i) => ({
              key: keyOf(identifier, `r${i}`, rule),
              rule,
              candidate,
              cost: costs[i],
            }));
            const lease = newNonce();
            const model = evaluateChecks(
              (key) => states.get(key),
              prepareChecks(checks).map((check) =>
                check.rule.algorithm === 'concurrency' ? { ...check, lease } : check,
              ),
              nowUs,
              dryRun,
            );
            const keysOf = (check: RuleCheck) => ruleKeys(check.rule, check.key);
            const before = await Promise.all(
              checks.map((check) => snapshot(t.redis, keysOf(check))),
            );
            const beforeMs = await serverMs(t.redis);
            const options = {
              now: nowUs / 1000,
              dryRun,
              lease,
              ...(deadlineUs === undefined ? {} : { deadline: (nowUs + deadlineUs) / 1000 }),
            };
            const call = viaPrepared
              ? checkPrepared(t.redis, set, identifier, costs, options)
              : checkRules(t.redis, checks, options);
            if (deadlineUs !== undefined && deadlineUs < 0) {
              await expect(call).rejects.toThrow(DeadlineExceededError);
              for (const [i, check] of checks.entries()) {
                expect(await snapshot(t.redis, keysOf(check))).toEqual(before[i]);
              }
              continue;
            }
            const actual: CompositeDecision & { lease?: Partial<PreparedLease> } = await call;
            const { lease: taken, ...decision } = actual;
            const { lease: expectedLease, ...expected } = model.decision;
            expect(decision).toEqual(expected);
            expect(taken && { nonce: taken.nonce, expiresAt: taken.expiresAt }).toEqual(
              expectedLease,
            );
            if (viaPrepared && taken) {
              expect(taken.id).toBe(leaseId('policy', identifierHash(identifier), lease));
            }

            const written = new Set(model.writes.map((write) => write.key));
            for (const [i, check] of checks.entries()) {
              const groupPassed = check.candidate ? actual.candidatesAllowed : actual.allowed;
              if (!groupPassed || dryRun) {
                // a denial by any rule of the group, or a dry run, leaves every key of it untouched
                expect(written.has(check.key)).toBe(false);
                expect(await snapshot(t.redis, keysOf(check))).toEqual(before[i]);
              }
            }
            for (const write of model.writes) {
              const check = checks.find((c) => c.key === write.key)!;
              const kept = await checkExpiryAndPersist(
                t.redis,
                keysOf(check),
                write.ttlMs,
                beforeMs,
              );
              if (kept) states.set(write.key, write.state);
              else states.delete(write.key);
            }
          }
        }),
        { numRuns: 100 },
      );
    },
  );

  it('a denial by one live rule charges none of them, while candidates commit on their own', async () => {
    const now = 1_750_000_000_000;
    const tight = {
      key: keyOf('u', 'tight'),
      rule: { algorithm: 'fixed_window', limit: 1, windowMs: 60_000 },
    } as const;
    // slow rates: the keys' TTLs run on Redis' real clock, and must outlast the test's two checks
    const loose = {
      key: keyOf('u', 'loose'),
      rule: { algorithm: 'token_bucket', capacity: 10, refillPerSecond: 0.01 },
    } as const;
    const shadow = {
      key: keyOf('u', 'shadow'),
      rule: { algorithm: 'gcra', limit: 5, periodMs: 600_000 },
      candidate: true,
    } as const;

    const first = await checkRules(t.redis, [tight, loose, shadow], { now });
    expect(first.allowed).toBe(true);
    expect(first.rules.map((r) => r.remaining)).toEqual([0, 9, 4]);

    const second = await checkRules(t.redis, [tight, loose, shadow], { now });
    expect(second.allowed).toBe(false);
    expect(second.retryAfter).toBe(60_000 - (now % 60_000));
    expect(second.candidatesAllowed).toBe(true);
    // the loose rule passed but, its group denied, shows its unconsumed figures
    expect(second.rules[1]).toMatchObject({ allowed: true, remaining: 9 });
    expect(second.rules[2]).toMatchObject({ allowed: true, remaining: 3, candidate: true });
    expect(await t.redis.hget(loose.key, 'tokens')).toBe('9');
  });

  it('a deadline on the Redis clock: a script starting after it reads and writes nothing', async () => {
    // a slow refill: the key (its TTL on the real clock) is still there when read
    const check = {
      key: keyOf('late', 'r'),
      rule: { algorithm: 'token_bucket', capacity: 5, refillPerSecond: 0.01 },
    } as const;
    const now = await serverMs(t.redis);
    const late = checkRules(t.redis, [check], { deadline: now - 1 });
    await expect(late).rejects.toThrow(DeadlineExceededError);
    await late.catch((error: DeadlineExceededError) => expect(error.deadline).toBe(now - 1));
    expect(await t.redis.exists(check.key)).toBe(0);
    const inTime = await checkRules(t.redis, [check], { deadline: now + 60_000 });
    expect(inTime).toMatchObject({ allowed: true, rules: [{ remaining: 4 }] });
    expect(await t.redis.hget(check.key, 'tokens')).toBe('4');
  });
});
