import { createTestRedis, type TestRedis } from '@sluice/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPrepared,
  evaluateChecks,
  identifierHash,
  leaseId,
  LocalLimiter,
  newNonce,
  prepareRuleSet,
  releaseLease,
  releaseLeaseModel,
  reservationId,
  ruleKeys,
  settleReservation,
  settleReservationModel,
  type PreparedDecision,
  type ReservationRecord,
  type RuleState,
} from '../src/index';
import { usToMs } from '../src/decision';
import { stateOf } from '../src/models/composite.model';
import { requestChecks, reservationKey, type PreparedRuleSet } from '../src/rule-set';
import {
  anyRule,
  capacityOf,
  checkExpiryAndPersist,
  serverMs,
  snapshot,
  startUs,
  unique,
} from './support';

const SCOPE = 'tnt_r.pol_r';

const dt = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 0, max: 5_000 }),
  fc.integer({ min: 0, max: 5_000_000 }),
  fc.integer({ min: 0, max: 90_000_000 }),
);

/** A policy of 1-3 rules (rate rules may be candidates) and a record lifetime. */
const policy = fc.record({
  rules: fc.array(
    fc
      .record({ rule: anyRule, candidate: fc.nat(3).map((n) => n === 0) })
      .map(({ rule, candidate }) => ({
        rule,
        candidate: candidate && rule.algorithm !== 'concurrency',
      })),
    { minLength: 1, maxLength: 3 },
  ),
  ttlMs: fc.oneof(
    fc.constantFrom(60_000, 3_600_000, 86_400_000),
    fc.integer({ min: 1_000, max: 86_400_000 }),
  ),
});

function operations(max: number) {
  const check = fc.record({
    kind: fc.constant('check' as const),
    dtUs: dt,
    cost: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: max + 2 })),
    reserve: fc.nat(4).map((n) => n > 0),
    dryRun: fc.nat(9).map((n) => n === 0),
  });
  const settle = fc.record({
    kind: fc.constant('settle' as const),
    dtUs: dt,
    // mostly a reservation made before; 1 in 8 one that never was
    pick: fc.nat(),
    unknown: fc.nat(7).map((n) => n === 0),
    // the actual cost against the estimate
    actual: fc.oneof(
      fc.constant({ vs: 'equal' as const, n: 0 }),
      fc.record({ vs: fc.constantFrom('under' as const, 'over' as const), n: fc.nat(4 * max) }),
    ),
  });
  const release = fc.record({ kind: fc.constant('release' as const), dtUs: dt, pick: fc.nat() });
  return fc.array(
    fc.oneof({ arbitrary: check, weight: 3 }, { arbitrary: settle, weight: 2 }, release),
    { minLength: 5, maxLength: 40, size: 'max' },
  );
}

describe('reservations and leases: Lua, the reference models and LocalLimiter agree', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('alg-res');
  });
  afterAll(() => t.cleanup());

  /** Every key the set keeps for the identifier, by rule key. */
  const keysByRule = (set: PreparedRuleSet, idHash: string) =>
    new Map(
      requestChecks(set, idHash, 0).map((check) => [check.key, ruleKeys(check.rule, check.key)]),
    );

  it(
    'random checks (with and without reservations), settles and releases: same figures, TTLs and ids',
    { timeout: 120_000 },
    async () => {
      const scenario = policy.chain((p) =>
        fc.tuple(
          fc.constant(p),
          startUs,
          operations(Math.max(...p.rules.map(({ rule }) => capacityOf(rule)))),
        ),
      );
      await fc.assert(
        fc.asyncProperty(scenario, async ([{ rules, ttlMs }, start, ops]) => {
          const identifier = unique('res');
          const idHash = identifierHash(identifier);
          const set = prepareRuleSet({
            prefix: t.prefix,
            scope: SCOPE,
            rules: rules.map(({ rule, candidate }, i) => ({ name: `r${i}`, rule, candidate })),
          });
          const ruleKeysOf = keysByRule(set, idHash);
          const local = new LocalLimiter();
          const states = new Map<string, RuleState>();
          const records = new Map<string, { record: ReservationRecord; expiresAtUs: number }>();
          const reservations: string[] = [];
          const leases: string[] = [];
          let nowUs = start;

          const allKeys = [...ruleKeysOf.values()].flat();
          /** Every key the model did not write is as it was (value and expiry). */
          const expectUnchangedBut = async (
            before: unknown[],
            writes: readonly { key: string }[],
          ) => {
            const written = new Set(writes.flatMap((w) => ruleKeysOf.get(w.key) ?? []));
            const after = await snapshot(t.redis, allKeys);
            allKeys.forEach((key, i) => {
              if (!written.has(key)) {
                expect(after.slice(2 * i, 2 * i + 2)).toEqual(before.slice(2 * i, 2 * i + 2));
              }
            });
          };

          /** Checks each write's TTL on Redis (then persists it: the test's clock is injected). */
          const persistWrites = async (
            writes: readonly { key: string; state: RuleState; ttlMs: number }[],
            beforeMs: number,
          ) => {
            for (const write of writes) {
              const kept = await checkExpiryAndPersist(
                t.redis,
                ruleKeysOf.get(write.key) ?? [],
                write.ttlMs,
                beforeMs,
              );
              if (kept) states.set(write.key, write.state);
              else {
                // gone on the server's real clock before it could be persisted: forget it here too
                states.delete(write.key);
                local.forget([write.key]);
              }
            }
          };

          for (const op of ops) {
            nowUs += op.dtUs;
            const now = nowUs / 1000;
            // records expire on the test's clock: Redis' copy goes when the model's does
            for (const [nonce, { expiresAtUs }] of records) {
              if (expiresAtUs > nowUs) continue;
              records.delete(nonce);
              await t.redis.del(reservationKey(set, idHash, nonce));
            }
            const before = await snapshot(t.redis, allKeys);
            const beforeMs = await serverMs(t.redis);

            if (op.kind === 'check') {
              const lease = newNonce();
              const nonce = newNonce();
              const reservation = op.reserve ? { ttlMs, nonce } : undefined;
              const model = evaluateChecks(
                (key) => states.get(key),
                requestChecks(set, idHash, op.cost, lease),
                nowUs,
                op.dryRun,
                op.reserve,
              );
              const options = {
                now,
                dryRun: op.dryRun,
                lease,
                ...(reservation && { reservation }),
              };
              const actual = await checkPrepared(t.redis, set, identifier, op.cost, options);
              const { lease: expectedLease, ...decision } = model.decision;
              const expected: PreparedDecision = decision;
              if (expectedLease) {
                expected.lease = { ...expectedLease, id: leaseId(SCOPE, idHash, lease) };
                leases.push(lease);
              }
              if (model.reservation) {
                expected.reservation = {
                  id: reservationId(SCOPE, idHash, nonce),
                  nonce,
                  estimate: op.cost,
                  expiresAt: usToMs(nowUs) + ttlMs,
                  rules: Object.keys(model.reservation.receipts),
                };
              }
              expect(actual).toEqual(expected);
              expect(local.checkPrepared(set, identifier, op.cost, options)).toEqual(expected);

              const recordKey = reservationKey(set, idHash, nonce);
              if (model.reservation) {
                await checkExpiryAndPersist(t.redis, [recordKey], ttlMs, beforeMs);
                records.set(nonce, {
                  record: model.reservation,
                  expiresAtUs: nowUs + ttlMs * 1000,
                });
                reservations.push(nonce);
              } else {
                // a denial, a dry run or a peek writes no reservation
                expect(await t.redis.exists(recordKey)).toBe(0);
              }
              await expectUnchangedBut(before, model.writes);
              await persistWrites(model.writes, beforeMs);
            } else if (op.kind === 'settle') {
              // mostly one not settled yet; sometimes any (a repeat), or one that never was
              const open = reservations.filter((n) => records.get(n)?.record.settled === false);
              const from = op.pick % 3 === 0 || open.length === 0 ? reservations : open;
              const nonce = op.unknown ? newNonce() : (from[op.pick % from.length] ?? newNonce());
              const entry = records.get(nonce);
              const refs = requestChecks(set, idHash, 0)
                .filter((check) => check.rule.algorithm !== 'concurrency')
                .map((check) => ({ ...check, name: check.name ?? '' }));
              const estimate = entry?.record.estimate ?? 0;
              const cost = {
                equal: estimate,
                under: op.actual.n % (estimate + 1),
                over: estimate + 1 + op.actual.n,
              }[op.actual.vs];
              const model = settleReservationModel(
                (key) => states.get(key),
                refs,
                entry?.record,
                nowUs,
                cost,
              );
              const ref = { idHash };
              const actual = await settleReservation(t.redis, set, ref, nonce, cost, { now });
              expect(actual).toEqual(model.result);
              expect(local.settleReservation(set, ref, nonce, cost, { now })).toEqual(model.result);
              if (entry && model.record) entry.record = model.record;
              await expectUnchangedBut(before, model.writes);
              await persistWrites(model.writes, beforeMs);
            } else {
              const nonce = leases[op.pick % (leases.length + 1)] ?? newNonce();
              let released = false;
              const changed: { key: string }[] = [];
              for (const check of requestChecks(set, idHash, 0)) {
                if (check.rule.algorithm !== 'concurrency') continue;
                const held = stateOf('concurrency', states.get(check.key));
                const after = releaseLeaseModel(held, nowUs, nonce);
                released ||= after.released;
                if (after.state && after.state !== held) {
                  states.set(check.key, after.state);
                  changed.push(check);
                }
              }
              const ref = { idHash };
              expect(await releaseLease(t.redis, set, ref, nonce, { now })).toEqual({ released });
              expect(local.releaseLease(set, ref, nonce, { now })).toEqual({ released });
              await expectUnchangedBut(before, changed);
            }
          }
        }),
        { numRuns: 200 },
      );
    },
  );
});
