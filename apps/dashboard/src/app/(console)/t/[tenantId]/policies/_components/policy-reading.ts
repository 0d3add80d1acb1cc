import type { Algorithm, FailMode, PolicyMode, ValueSource } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { ruleReading, type ReadableRule } from '@/components/policy-editor/rule-reading';
import { ALGORITHM_LABELS, ALGORITHM_PARAMS, formatParam, type ParamName } from '@/lib/rules';

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
  /** TENANT on a plan's policy: the tenant's own candidate (tryPlanPolicyCandidates). */
  source?: ValueSource;
  candidate: boolean;
  /** Candidate rules: the live rule this one proposes new values for. */
  replaces?: string | null;
  params: readonly ParamView[];
}

export const isParamName = (algorithm: Algorithm, name: string): name is ParamName =>
  ALGORITHM_PARAMS[algorithm].some((spec) => spec.name === name);

/** A parameter's name for people: the algorithm's label ("Window" for a calendar too). */
export function paramLabel(algorithm: Algorithm, name: string): string {
  if (name === 'calendar') return 'Window';
  return ALGORITHM_PARAMS[algorithm].find((s) => s.name === name)?.label ?? name;
}

const calendarWindow = (calendar: Calendar) =>
  `a calendar ${calendar.unit.toLowerCase()} (${calendar.timeZone})`;

/**
 * A rule's parameters in the order people read them (the algorithm's: a limit before its window,
 * a calendar where the window would be); the API lists them in its own order.
 */
export function orderedParams<P extends Pick<ParamView, 'name'>>(
  algorithm: Algorithm,
  params: readonly P[],
): P[] {
  const order = ALGORITHM_PARAMS[algorithm].map((spec) => spec.name as string);
  const rank = (name: string) => {
    const index = order.indexOf(name === 'calendar' ? 'windowMs' : name);
    return index === -1 ? order.length : index;
  };
  return [...params].sort((a, b) => rank(a.name) - rank(b.name));
}

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

/**
 * A rule in one line of plain language ("5 at once, then 1 per second"), read as the policy
 * editor reads it; its values as `effectivePolicies` lists them.
 */
export function describeRule(rule: RuleView): string {
  const readable: ReadableRule = { algorithm: rule.algorithm };
  for (const param of rule.params) {
    if (param.calendar) readable.calendar = param.calendar;
    else if (isParamName(rule.algorithm, param.name)) readable[param.name] = param.value ?? null;
  }
  return ruleReading(readable) ?? ALGORITHM_LABELS[rule.algorithm];
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
