import type { Algorithm, FailMode, PolicyMode, ValueSource } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { ALGORITHM_PARAMS, formatDuration, formatParam, type ParamName } from '@/lib/rules';

interface Calendar {
  unit: string;
  timeZone: string;
}

/** A parameter as `effectivePolicies` gives it (what these helpers read of it). */
export interface ParamView {
  name: string;
  value?: number | null;
  calendar?: Calendar | null;
  source: ValueSource;
  changeable: boolean;
  min?: number | null;
  max?: number | null;
}

export interface RuleView {
  name: string;
  algorithm: Algorithm;
  candidate: boolean;
  params: readonly ParamView[];
}

const isParamName = (algorithm: Algorithm, name: string): name is ParamName =>
  ALGORITHM_PARAMS[algorithm].some((spec) => spec.name === name);

/** A parameter's name for people: the algorithm's label, without a unit (values carry theirs). */
export function paramLabel(algorithm: Algorithm, name: string): string {
  if (name === 'calendar') return 'Window';
  const spec = ALGORITHM_PARAMS[algorithm].find((s) => s.name === name);
  return spec ? spec.label.replace(/ \(ms\)$/, '') : name;
}

const calendarWindow = (calendar: Calendar) =>
  `a calendar ${calendar.unit.toLowerCase()} (${calendar.timeZone})`;

/** A parameter's value as people read it: "1 day", "1/s", "a calendar day (UTC)". */
export function paramValue(algorithm: Algorithm, param: ParamView): string {
  if (param.calendar) return calendarWindow(param.calendar);
  if (typeof param.value !== 'number') return 'not set';
  return isParamName(algorithm, param.name)
    ? formatParam(param.name, param.value)
    : formatNumber(param.value);
}

export type ValueOrigin = 'plan' | 'change' | 'own';

/** Where a value comes from: the plan's template, the tenant's change of it, its own policy. */
export function valueOrigin(policySource: ValueSource, paramSource: ValueSource): ValueOrigin {
  if (policySource === 'TENANT') return 'own';
  return paramSource === 'TENANT' ? 'change' : 'plan';
}

export const ORIGIN_LABELS: Record<ValueOrigin, string> = {
  plan: 'Plan',
  change: 'Tenant change',
  own: 'Tenant’s own',
};

/**
 * The range the plan lets the tenant choose in, in the parameter's unit: "1 – 50",
 * "1 minute – 1 day", "at most 100"; null: none given.
 */
export function planRange(
  algorithm: Algorithm,
  param: Pick<ParamView, 'name' | 'min' | 'max'>,
): string | null {
  const format = (value: number) =>
    isParamName(algorithm, param.name) ? formatParam(param.name, value) : formatNumber(value);
  const min = param.min ?? null;
  const max = param.max ?? null;
  if (min !== null && max !== null) return `${format(min)} – ${format(max)}`;
  if (min !== null) return `at least ${format(min)}`;
  if (max !== null) return `at most ${format(max)}`;
  return null;
}

/** A rate in the smallest unit where it is a whole number: 1 → "1 per second", 0.5 → "30 per minute". */
export function formatRate(perSecond: number): string {
  const units: [number, string][] = [
    [1, 'second'],
    [60, 'minute'],
    [3_600, 'hour'],
    [86_400, 'day'],
  ];
  for (const [seconds, unit] of units) {
    const n = perSecond * seconds;
    // 10000 / 60 per second reads as 10,000 per minute despite the float's last digits
    if (n >= 1 && Math.abs(n - Math.round(n)) < 1e-9 * n) {
      return `${formatNumber(Math.round(n))} per ${unit}`;
    }
  }
  return `${formatNumber(perSecond)} per second`;
}

/** "day" for one day, "2 hours" for two: what follows "per" or "in any". */
function windowPhrase(ms: number): string {
  const duration = formatDuration(ms);
  return duration.startsWith('1 ') ? duration.slice(2) : duration;
}

/**
 * A rule in one line of plain language: "5 at once, then 1 per second", "1,000 per day",
 * "100 in any minute".
 */
export function describeRule(rule: RuleView): string {
  const param = (name: string) => rule.params.find((p) => p.name === name);
  const value = (name: string) => param(name)?.value ?? undefined;
  const count = (name: string) => {
    const n = value(name);
    return n === undefined ? '?' : formatNumber(n);
  };
  const window = (name: string) => {
    const calendar = param('calendar')?.calendar;
    if (calendar) return `${calendar.unit.toLowerCase()} (calendar, ${calendar.timeZone})`;
    const ms = value(name);
    return ms === undefined ? '?' : windowPhrase(ms);
  };
  const rate = (name: string) => {
    const n = value(name);
    return n === undefined ? '?' : formatRate(n);
  };
  switch (rule.algorithm) {
    case 'TOKEN_BUCKET':
      return `${count('capacity')} at once, then ${rate('refillPerSecond')}`;
    case 'LEAKY_BUCKET':
      return `${count('capacity')} at once, draining ${rate('leakPerSecond')}`;
    case 'FIXED_WINDOW':
      return `${count('limit')} per ${window('windowMs')}`;
    case 'SLIDING_WINDOW_LOG':
    case 'SLIDING_WINDOW_COUNTER':
      return `${count('limit')} in any ${window('windowMs')}`;
    case 'GCRA': {
      const burst = value('burst');
      return `${count('limit')} per ${window('periodMs')}, evenly spaced${
        burst === undefined ? '' : `, bursts of up to ${formatNumber(burst)}`
      }`;
    }
    case 'CONCURRENCY': {
      const ttl = value('leaseTtlMs');
      return `${count('limit')} in flight at once${
        ttl === undefined ? '' : `, a lease held at most ${formatDuration(ttl)}`
      }`;
    }
  }
}

export const MODE_LABELS: Record<PolicyMode, { label: string; meaning: string }> = {
  ENFORCE: { label: 'Enforce', meaning: 'denies what goes over a limit' },
  SHADOW: { label: 'Shadow', meaning: 'decides and counts, but always allows' },
};

export const FAIL_MODE_LABELS: Record<FailMode, { label: string; meaning: string }> = {
  OPEN: { label: 'Open', meaning: 'allows when Redis fails or is too slow' },
  CLOSED: { label: 'Closed', meaning: 'refuses (503) when Redis fails or is too slow' },
  LOCAL: { label: 'Local', meaning: 'an in-process limiter decides when Redis fails' },
};
