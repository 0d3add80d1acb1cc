import type { Algorithm, RuleChangeInput } from '@/generated/gql/graphql';
import type { FieldIssue } from '@/lib/errors';
import { formErrors } from '@/lib/errors';
import type { Calendar, RuleChangeView } from '@/lib/rule-changes';
import { formatNumber } from '@/lib/format';
import {
  ALGORITHM_PARAMS,
  formatDuration,
  PARAM_NAMES,
  WINDOWED,
  type ParamName,
  type ParamSpec,
} from '@/lib/rules';

/** A rule as `effectivePolicies` gives it (what these helpers read of it). */
export interface RuleView {
  name: string;
  algorithm: Algorithm;
  candidate: boolean;
  params: {
    name: string;
    value?: number | null;
    calendar?: Calendar | null;
    changeable: boolean;
    min?: number | null;
    max?: number | null;
  }[];
}

export interface OfferedParam extends ParamSpec {
  /** The policy's value for this tenant (null: not set, e.g. a GCRA without burst). */
  current: number | null;
  /** The plan's bounds for a tenant admin (templates only). */
  min: number | null;
  max: number | null;
}

/**
 * The parameters of a rule an override may set for this user: every parameter of its algorithm,
 * except that a tenant admin's override of a plan template may only set what the plan opens to
 * the tenant (the API refuses the rest).
 */
export function offeredParams(
  rule: RuleView,
  { template, operator }: { template: boolean; operator: boolean },
): OfferedParam[] {
  return ALGORITHM_PARAMS[rule.algorithm].flatMap((spec) => {
    const effective = rule.params.find((p) => p.name === spec.name);
    if (template && !operator && !effective?.changeable) return [];
    return [
      {
        ...spec,
        current: effective?.value ?? null,
        min: template ? (effective?.min ?? null) : null,
        max: template ? (effective?.max ?? null) : null,
      },
    ];
  });
}

/** The plan's range for a parameter, as a hint: "The plan allows 1 to 50." */
export function boundsHint(param: Pick<OfferedParam, 'min' | 'max'>): string | null {
  const { min, max } = param;
  if (min !== null && max !== null) {
    return `The plan allows ${formatNumber(min)} to ${formatNumber(max)}.`;
  }
  if (min !== null) return `The plan allows at least ${formatNumber(min)}.`;
  if (max !== null) return `The plan allows at most ${formatNumber(max)}.`;
  return null;
}

/** The form's values: rule name → parameter → number ('' while the field is empty). */
export type RuleValues = Record<string, Partial<Record<ParamName, number | string>>>;

/**
 * Every offered parameter's field, empty ('') unless `values` has it: the form sets nested fields
 * only where their rule's object exists.
 */
export function blankRuleValues(
  offered: readonly { rule: string; params: readonly ParamName[] }[],
  values: RuleValues = {},
): RuleValues {
  return Object.fromEntries(
    offered.map(({ rule, params }) => [
      rule,
      Object.fromEntries(params.map((param) => [param, values[rule]?.[param] ?? ''])),
    ]),
  );
}

/** An override's rules as the form's values. */
export function ruleValuesOf(rules: readonly RuleChangeView[]): RuleValues {
  const values: RuleValues = {};
  for (const rule of rules) {
    const params: Partial<Record<ParamName, number>> = {};
    for (const name of PARAM_NAMES) {
      const value = rule[name];
      if (typeof value === 'number') params[name] = value;
    }
    values[rule.name] = params;
  }
  return values;
}

/**
 * The form's values as the API's rules: in the policy's order, only rules with a value set, and
 * only the parameters `offered` for each (a rule's calendar kept as it was).
 */
export function toRuleInputs(
  values: RuleValues,
  offered: readonly { rule: string; params: readonly ParamName[] }[],
  kept: readonly RuleChangeView[] = [],
): RuleChangeInput[] {
  const inputs: RuleChangeInput[] = [];
  for (const { rule, params } of offered) {
    const input: RuleChangeInput = { name: rule };
    let set = false;
    for (const param of params) {
      const value = values[rule]?.[param];
      if (typeof value === 'number' && Number.isFinite(value)) {
        input[param] = value;
        set = true;
      }
    }
    const calendar = kept.find((k) => k.name === rule)?.calendar;
    if (calendar) {
      input.calendar = { unit: calendar.unit as 'DAY' | 'MONTH', timeZone: calendar.timeZone };
      set = true;
    }
    if (set) inputs.push(input);
  }
  return inputs;
}

/**
 * The API's field issues as the form's errors: `input.rules.0.capacity` names the first rule
 * sent, which the form knows by its name (`rules.burst.capacity`). What no field shows (a rule
 * with nothing set, no rule at all) is returned apart, for the form's alert.
 */
export function overrideFormErrors(
  issues: readonly FieldIssue[],
  sent: readonly RuleChangeInput[],
): { fields: Record<string, string>; general: string[] } {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const [path, message] of Object.entries(formErrors(issues))) {
    const [head, index, param] = path.split('.');
    if (head === 'rules') {
      const rule = index === undefined ? undefined : sent[Number(index)]?.name;
      if (rule !== undefined && param !== undefined) fields[`rules.${rule}.${param}`] = message;
      else general.push(rule ? `${rule}: ${message}` : message);
    } else if (head === 'clearExpiry') {
      fields['expiresAt'] = message;
    } else if (head !== undefined) {
      fields[head] = message;
    }
  }
  return { fields, general };
}

function windowOf(rule: RuleView, change: RuleChangeView | undefined): string {
  if (change?.calendar) return `a calendar ${change.calendar.unit.toLowerCase()}`;
  if (typeof change?.windowMs === 'number') return formatDuration(change.windowMs);
  const calendar = rule.params.find((p) => p.calendar)?.calendar;
  if (calendar) return `a calendar ${calendar.unit.toLowerCase()}`;
  const ms = rule.params.find((p) => p.name === 'windowMs')?.value;
  return typeof ms === 'number' ? formatDuration(ms) : 'none';
}

export interface WindowChange {
  rule: string;
  before: string;
  after: string;
}

/**
 * The windows an override's identifiers would move to: their counters start afresh (the API's
 * `countersReset` says so afterwards). `before`: the override's rules until now (none for a new
 * override); `after`: its rules from now on (none once deleted).
 */
export function windowChanges(
  rules: readonly RuleView[],
  before: readonly RuleChangeView[],
  after: readonly RuleChangeView[],
): WindowChange[] {
  return rules
    .filter((rule) => !rule.candidate && WINDOWED.has(rule.algorithm))
    .flatMap((rule) => {
      const was = windowOf(
        rule,
        before.find((r) => r.name === rule.name),
      );
      const will = windowOf(
        rule,
        after.find((r) => r.name === rule.name),
      );
      return was === will ? [] : [{ rule: rule.name, before: was, after: will }];
    });
}

export type Match = 'EXACT' | 'PREFIX';

/** The identifier the API takes: a prefix ends with `*`. */
export function identifierInput(match: Match, text: string): string {
  const trimmed = text.trim();
  return match === 'PREFIX' ? `${trimmed.replace(/\*+$/, '')}*` : trimmed;
}

/** Why the identifier field cannot be sent as it is (null: it can). */
export function identifierProblem(match: Match, text: string): string | null {
  const typed = text.trim();
  if (match === 'EXACT' && typed.endsWith('*')) {
    return 'An identifier ending with * is a prefix: choose “Prefix”';
  }
  const identifier = match === 'PREFIX' ? typed.replace(/\*+$/, '') : typed;
  if (!identifier) {
    return match === 'PREFIX' ? 'Enter the start of the identifiers' : 'Enter an identifier';
  }
  if (new TextEncoder().encode(identifier).length > 256) return 'At most 256 bytes';
  return null;
}

/**
 * What an override sets that this user may not set (a tenant admin, parameters the plan does not
 * open, e.g. an operator's override): its rules cannot be edited by them, only its expiry and
 * reason. "rule.param" for each.
 */
export function lockedParams(
  rules: readonly RuleChangeView[],
  offered: readonly { rule: string; params: readonly ParamName[] }[],
  calendarAllowed: boolean,
): string[] {
  return rules.flatMap((rule) => {
    const allowed = offered.find((o) => o.rule === rule.name)?.params ?? [];
    const locked = PARAM_NAMES.filter(
      (name) => typeof rule[name] === 'number' && !allowed.includes(name),
    ).map((name) => `${rule.name}.${name}`);
    if (rule.calendar && !calendarAllowed) locked.push(`${rule.name}.calendar`);
    return locked;
  });
}
