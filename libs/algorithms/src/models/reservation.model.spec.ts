import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capacityOf, rateRuleArbitraries, startUs, steps } from '../../test/support';
import { evaluateChecks, evaluateRule, type RuleState } from './composite.model';
import type { ReservationRecord } from './receipt.model';
import { settleReservationModel } from './reservation.model';

const KEY = 'k';

describe('settle models', () => {
  it('an overrun is charged in full, a refund at most in full; expiry never forgives debt; never above capacity', () => {
    fc.assert(
      fc.property(
        fc
          .oneof(...Object.values(rateRuleArbitraries))
          .chain((rule) =>
            fc.tuple(
              fc.constant(rule),
              startUs,
              steps(rule),
              fc.array(fc.integer({ min: 0, max: 6 * capacityOf(rule) }), { minLength: 40 }),
            ),
          ),
        ([rule, start, sequence, actuals]) => {
          let state: RuleState | undefined;
          const records: ReservationRecord[] = [];
          let nowUs = start;
          for (const [i, { dtUs, cost }] of sequence.entries()) {
            nowUs += dtUs;
            const actual = actuals[i] ?? 0;
            const open = records.findIndex((record) => !record.settled);
            if (i % 2 === 1 && open >= 0) {
              const record = records[open]!;
              const ref = { name: 'r', key: KEY, rule, candidate: false };
              const {
                result,
                writes,
                record: after,
              } = settleReservationModel(() => state, [ref], record, nowUs, actual);
              records[open] = after!;
              if (!result.found) throw new Error('the record is there');
              const delta = actual - record.estimate;
              const [settled] = result.rules;
              if (delta > 0) expect(settled?.charged).toBe(delta);
              else expect(settled?.charged).toBeLessThanOrEqual(0);
              expect(settled!.charged).toBeGreaterThanOrEqual(Math.min(delta, 0));
              expect(settled!.remaining).toBeLessThanOrEqual(capacityOf(rule));
              for (const write of writes) {
                const expiresUs = nowUs + write.ttlMs * 1000;
                for (const probe of [0, 1, capacityOf(rule)]) {
                  expect(evaluateRule(rule, write.state, expiresUs, probe).decision).toEqual(
                    evaluateRule(rule, undefined, expiresUs, probe).decision,
                  );
                }
                state = write.state;
              }
              continue;
            }
            const checks = [{ key: KEY, rule, cost, candidate: false, name: 'r' }];
            const { writes, reservation } = evaluateChecks(() => state, checks, nowUs, false, true);
            if (writes[0]) state = writes[0].state;
            if (reservation) records.push(reservation);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
