import { describe, expect, it } from 'vitest';
import {
  describeRule,
  orderedParams,
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
  it('reads a rule’s effective values as the editor reads a rule', () => {
    expect(
      describeRule(rule('TOKEN_BUCKET', [param('capacity', 5), param('refillPerSecond', 1)])),
    ).toBe('5 at once, then 1 per second');
    expect(
      describeRule(rule('FIXED_WINDOW', [param('limit', 1000), param('windowMs', 86_400_000)])),
    ).toBe('1,000 per day');
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
    expect(describeRule(daily)).toBe('50 per calendar day (Europe/Paris)');
  });

  it('names the algorithm when a value is missing', () => {
    expect(describeRule(rule('GCRA', [param('limit', 10)]))).toBe('GCRA');
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

  it('orders a rule’s parameters as its algorithm reads them', () => {
    const names = (algorithm: RuleView['algorithm'], params: string[]) =>
      orderedParams(
        algorithm,
        params.map((name) => param(name, 1)),
      ).map((p) => p.name);
    expect(names('GCRA', ['burst', 'limit', 'periodMs'])).toEqual(['limit', 'periodMs', 'burst']);
    expect(names('FIXED_WINDOW', ['calendar', 'limit'])).toEqual(['limit', 'calendar']);
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
