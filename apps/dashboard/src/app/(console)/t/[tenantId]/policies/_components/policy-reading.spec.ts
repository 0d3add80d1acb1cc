import { describe, expect, it } from 'vitest';
import {
  describeRule,
  formatRate,
  paramLabel,
  paramValue,
  planRange,
  valueOrigin,
  type ParamView,
  type RuleView,
} from './policy-reading';

const param = (name: string, value: number, extra: Partial<ParamView> = {}): ParamView => ({
  name,
  value,
  source: 'PLAN',
  changeable: false,
  ...extra,
});
const rule = (algorithm: RuleView['algorithm'], params: ParamView[]): RuleView => ({
  name: 'r',
  algorithm,
  candidate: false,
  params,
});

describe('describeRule', () => {
  it('reads each algorithm in plain language', () => {
    expect(
      describeRule(rule('TOKEN_BUCKET', [param('capacity', 5), param('refillPerSecond', 1)])),
    ).toBe('5 at once, then 1 per second');
    expect(
      describeRule(rule('LEAKY_BUCKET', [param('capacity', 10), param('leakPerSecond', 0.5)])),
    ).toBe('10 at once, draining 30 per minute');
    expect(
      describeRule(rule('FIXED_WINDOW', [param('limit', 1000), param('windowMs', 86_400_000)])),
    ).toBe('1,000 per day');
    expect(
      describeRule(
        rule('SLIDING_WINDOW_COUNTER', [param('limit', 100), param('windowMs', 7_200_000)]),
      ),
    ).toBe('100 in any 2 hours');
    expect(
      describeRule(rule('GCRA', [param('limit', 10), param('periodMs', 1000), param('burst', 3)])),
    ).toBe('10 per second, evenly spaced, bursts of up to 3');
    expect(
      describeRule(rule('CONCURRENCY', [param('limit', 4), param('leaseTtlMs', 60_000)])),
    ).toBe('4 in flight at once, a lease held at most 1 minute');
  });

  it('reads a calendar window with its time zone', () => {
    const daily = rule('FIXED_WINDOW', [
      param('limit', 50),
      {
        name: 'calendar',
        value: null,
        calendar: { unit: 'DAY', timeZone: 'Europe/Paris' },
        source: 'PLAN',
        changeable: false,
      },
    ]);
    expect(describeRule(daily)).toBe('50 per day (calendar, Europe/Paris)');
  });
});

describe('formatRate', () => {
  it('picks the unit in which the rate is whole', () => {
    expect(formatRate(20)).toBe('20 per second');
    expect(formatRate(10_000 / 60)).toBe('10,000 per minute');
    expect(formatRate(1 / 3600)).toBe('1 per hour');
    expect(formatRate(0.3)).toBe('18 per minute');
  });
});

describe('values', () => {
  it('labels and formats a parameter for people', () => {
    expect(paramLabel('FIXED_WINDOW', 'windowMs')).toBe('Window');
    expect(paramLabel('CONCURRENCY', 'limit')).toBe('In flight');
    expect(paramValue('FIXED_WINDOW', param('windowMs', 86_400_000))).toBe('1 day');
    expect(paramValue('TOKEN_BUCKET', param('refillPerSecond', 1))).toBe('1/s');
    expect(
      paramValue('FIXED_WINDOW', {
        ...param('calendar', 0),
        value: null,
        calendar: { unit: 'MONTH', timeZone: 'UTC' },
      }),
    ).toBe('a calendar month (UTC)');
  });

  it('says where a value comes from', () => {
    expect(valueOrigin('PLAN', 'PLAN')).toBe('plan');
    expect(valueOrigin('PLAN', 'TENANT')).toBe('change');
    expect(valueOrigin('TENANT', 'TENANT')).toBe('own');
  });

  it('says the plan’s range', () => {
    expect(planRange('TOKEN_BUCKET', { name: 'capacity', min: 1, max: 50 })).toBe('1 – 50');
    expect(planRange('FIXED_WINDOW', { name: 'windowMs', min: 60_000, max: 86_400_000 })).toBe(
      '1 minute – 1 day',
    );
    expect(planRange('TOKEN_BUCKET', { name: 'refillPerSecond', min: null, max: 100 })).toBe(
      'at most 100/s',
    );
    expect(planRange('GCRA', { name: 'limit', min: 1, max: null })).toBe('at least 1');
    expect(planRange('GCRA', { name: 'limit', min: null, max: null })).toBeNull();
  });
});
