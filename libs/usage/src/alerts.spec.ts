import { identifierHash } from '@sluice/algorithms';
import { describe, expect, it } from 'vitest';
import { parseQuotaAlert, quotaAlertFields, thresholdCrossings } from './alerts';
import type { DecisionEvent, RuleFigures } from './recorder';

const HOUR = 3_600_000;
/** A fixed window of an hour, ending at WINDOW_END. */
const WINDOW_END = 1_796_245_200_000;

function fixed(limit: number, remaining: number, over: Partial<RuleFigures> = {}): RuleFigures {
  return {
    name: 'hourly',
    algorithm: 'fixed_window',
    limit,
    remaining,
    resetAt: WINDOW_END,
    windowMs: HOUR,
    ...over,
  };
}

function check(rules: RuleFigures[], over: Partial<DecisionEvent> = {}): DecisionEvent {
  return {
    tenantId: 'tnt_a',
    policy: 'api',
    keyId: 'key_1',
    at: WINDOW_END - 1000,
    identifier: 'user-1',
    allowed: true,
    reason: 'allowed',
    cost: 1,
    shadowDenied: false,
    candidateDenied: false,
    rules,
    ...over,
  };
}

/** Which thresholds each check of cost 1 crosses, using a window of `limit` up to the end. */
function walk(limit: number, resetAt = WINDOW_END): (80 | 100)[][] {
  const crossed: (80 | 100)[][] = [];
  for (let used = 1; used <= limit; used += 1) {
    const found = thresholdCrossings(check([fixed(limit, limit - used, { resetAt })]));
    crossed.push((found ?? []).map((alert) => alert.threshold));
  }
  return crossed;
}

describe('threshold crossings', () => {
  it('raise 80 % and 100 % once each while a fixed window fills, nothing in between', () => {
    const crossed = walk(10);
    expect(crossed).toEqual([[], [], [], [], [], [], [], [80], [], [100]]);
    // past the limit (debt after a settle) nothing crosses again
    expect(thresholdCrossings(check([fixed(10, -3)]))).toBeUndefined();
  });

  it('carry what the payload and the claim need', () => {
    const [alert] = thresholdCrossings(check([fixed(10, 2)])) ?? [];
    expect(alert).toEqual({
      tenantId: 'tnt_a',
      policy: 'api',
      rule: 'hourly',
      identifier: 'user-1',
      idHash: identifierHash('user-1'),
      threshold: 80,
      limit: 10,
      used: 8,
      windowStart: WINDOW_END - HOUR,
      windowEnd: WINDOW_END,
      at: WINDOW_END - 1000,
      window: String(WINDOW_END),
      // a window about to end is still claimed for a minute, so a retried flush finds it
      claimUntil: WINDOW_END - 1000 + 60_000,
      nonce: expect.stringMatching(/^[0-9A-Za-z]{16}$/),
    });
    const early = thresholdCrossings(check([fixed(10, 2)], { at: WINDOW_END - HOUR + 5 }));
    expect(early?.[0]?.claimUntil).toBe(WINDOW_END);
  });

  it('re-arm in the next window: its end names another claim', () => {
    const next = WINDOW_END + HOUR;
    expect(walk(5, next)).toEqual([[], [], [], [80], [100]]);
    const [first] = thresholdCrossings(check([fixed(5, 1)])) ?? [];
    const [second] = thresholdCrossings(check([fixed(5, 1, { resetAt: next })])) ?? [];
    expect(first?.window).toBe(String(WINDOW_END));
    expect(second).toMatchObject({ window: String(next), windowStart: WINDOW_END });
  });

  it('raise both when one cost jumps over 80 % straight to 100 %', () => {
    const found = thresholdCrossings(check([fixed(10, 0)], { cost: 5 }));
    expect(found?.map((alert) => [alert.threshold, alert.used])).toEqual([
      [80, 10],
      [100, 10],
    ]);
    // a jump to 90 % crosses 80 % only
    expect(thresholdCrossings(check([fixed(10, 1)], { cost: 4 }))?.map((a) => a.threshold)).toEqual(
      [80],
    );
  });

  it('round 80 % up to whole units: limits of 1 to 4 cross both with their last unit', () => {
    for (const limit of [1, 2, 3, 4]) {
      expect(walk(limit).at(-1)).toEqual([80, 100]);
      expect(walk(limit).slice(0, -1).flat()).toEqual([]);
    }
    expect(walk(5)).toEqual([[], [], [], [80], [100]]);
    // 80 % of 1,001 is 800.8: the 801st unit crosses it
    expect(walk(1001).findIndex((t) => t.includes(80))).toBe(800);
  });

  it('come only from checks that charged in Redis', () => {
    const crossing = [fixed(10, 2)];
    // a denial, and a shadow policy's would-be denial, charge nothing
    expect(thresholdCrossings(check(crossing, { allowed: false, reason: 'rule' }))).toBeUndefined();
    expect(
      thresholdCrossings(check(crossing, { reason: 'shadow', shadowDenied: true })),
    ).toBeUndefined();
    // the local fail mode counts this process only; fail-open and suspended have no figures
    expect(thresholdCrossings(check(crossing, { reason: 'local' }))).toBeUndefined();
    expect(thresholdCrossings(check([], { reason: 'fail-open' }))).toBeUndefined();
    // a peek (cost 0) consumes nothing, and an event without figures has nothing to compare
    expect(thresholdCrossings(check(crossing, { cost: 0 }))).toBeUndefined();
    expect(thresholdCrossings(check(crossing, { rules: undefined }))).toBeUndefined();
    // a shadow-mode policy's allowed check is charged like a live one: it alerts
    expect(thresholdCrossings(check(crossing))?.map((a) => a.threshold)).toEqual([80]);
  });

  it('watch only rules with a quota window', () => {
    for (const algorithm of ['token_bucket', 'leaky_bucket', 'gcra', 'concurrency']) {
      expect(thresholdCrossings(check([fixed(10, 0, { algorithm })]))).toBeUndefined();
    }
    const sliding = (algorithm: string) =>
      thresholdCrossings(check([fixed(10, 2, { algorithm, name: 'minute', windowMs: 60_000 })]));
    for (const algorithm of ['sliding_window_log', 'sliding_window_counter']) {
      const at = WINDOW_END - 1000;
      expect(sliding(algorithm)).toEqual([
        expect.objectContaining({
          rule: 'minute',
          threshold: 80,
          window: 'sliding',
          windowStart: at - 60_000,
          windowEnd: at,
          claimUntil: at + 60_000,
        }),
      ]);
    }
  });

  it('check every rule of the policy apart', () => {
    const found = thresholdCrossings(
      check([
        { ...fixed(100, 50), algorithm: 'token_bucket', name: 'burst' },
        fixed(10, 2),
        fixed(5, 0, { name: 'daily', resetAt: WINDOW_END + 23 * HOUR, windowMs: 24 * HOUR }),
      ]),
    );
    expect(found?.map((alert) => [alert.rule, alert.threshold])).toEqual([
      ['hourly', 80],
      ['daily', 100],
    ]);
  });

  it('skip figures that cannot be right, without throwing', () => {
    const bad: Partial<RuleFigures>[] = [
      // each of these would cross 80 % if taken at face value
      { remaining: 1.5 },
      { resetAt: -5 },
      { windowMs: 0 },
      { resetAt: Number.POSITIVE_INFINITY },
      { name: 'Not A Name' },
    ];
    for (const over of bad) expect(thresholdCrossings(check([fixed(10, 2, over)]))).toBeUndefined();
  });
});

describe('the alert stream entry', () => {
  it('reads back as written, with an id the same for every data plane that saw it', () => {
    const [first] = thresholdCrossings(check([fixed(10, 2)], { identifier: 'ü ser {x}' })) ?? [];
    const [again] = thresholdCrossings(check([fixed(10, 2)], { identifier: 'ü ser {x}' })) ?? [];
    const fields = quotaAlertFields(first!).map(String);
    const alert = parseQuotaAlert(fields);
    expect(alert).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      tenantId: 'tnt_a',
      policy: 'api',
      rule: 'hourly',
      identifier: 'ü ser {x}',
      threshold: 80,
      limit: 10,
      used: 8,
      windowStart: WINDOW_END - HOUR,
      windowEnd: WINDOW_END,
      at: WINDOW_END - 1000,
    });
    // another nonce, another check time: still the same alert
    expect(parseQuotaAlert(quotaAlertFields({ ...again!, at: 1 }).map(String))?.id).toBe(alert?.id);
    const [next] =
      thresholdCrossings(
        check([fixed(10, 2, { resetAt: WINDOW_END + HOUR })], { identifier: 'ü ser {x}' }),
      ) ?? [];
    expect(parseQuotaAlert(quotaAlertFields(next!).map(String))?.id).not.toBe(alert?.id);
  });

  it('refuses entries that are not alerts', () => {
    const fields = quotaAlertFields(thresholdCrossings(check([fixed(10, 2)]))![0]!).map(String);
    const without = (name: string) => {
      const copy = [...fields];
      copy.splice(copy.indexOf(name), 2);
      return copy;
    };
    const replaced = (name: string, value: string) =>
      fields.map((field, i) => (i > 0 && fields[i - 1] === name ? value : field));
    expect(parseQuotaAlert([])).toBeUndefined();
    expect(parseQuotaAlert(without('identifier'))).toBeUndefined();
    expect(parseQuotaAlert(replaced('threshold', '90'))).toBeUndefined();
    expect(parseQuotaAlert(replaced('tenant', '{tnt}'))).toBeUndefined();
    expect(parseQuotaAlert(replaced('limit', '1e3'))).toBeUndefined();
    expect(parseQuotaAlert(replaced('identifier', 'x'.repeat(257)))).toBeUndefined();
  });
});
