import type {
  Algorithm,
  CalendarUnit,
  FailMode,
  PolicyMode,
  PolicySettingsInput,
  RuleInput,
} from '@/generated/gql/graphql';
import type { ApiError, FieldIssue } from '@/lib/errors';
import {
  ALGORITHM_LABELS,
  ALGORITHM_PARAMS,
  formatDuration,
  paramUnit,
  WINDOWED,
  type ParamName,
  type ParamSpec,
} from '@/lib/rules';
import { durationDraft, durationMs, type DurationDraft, type DurationUnit } from './duration';
import type { ReadableRule } from './rule-reading';

/**
 * The policy editor's model: a policy as the form holds it (numbers as typed, durations with a
 * unit), to and from the API's shapes. Field names follow `PolicySettingsInput`, so the API's
 * field errors (`input.rules.0.capacity`) land on the form's paths (`rules.0.capacity`) as they are.
 */

/** A number field: '' while empty. */
export type NumberDraft = number | '';
/** A parameter's value: a duration for the parameters in ms, else a number. */
export type ValueDraft = NumberDraft | DurationDraft;

/** Templates: a parameter tenants may change, within [min, max] (empty: no bound of the plan). */
export interface BoundDraft {
  param: ParamName;
  min: ValueDraft;
  max: ValueDraft;
}

export interface RuleDraft {
  /** Stable while rules are added and removed (React's key), never sent. */
  key: string;
  name: string;
  algorithm: Algorithm;
  capacity: NumberDraft;
  refillPerSecond: NumberDraft;
  leakPerSecond: NumberDraft;
  limit: NumberDraft;
  burst: NumberDraft;
  windowMs: DurationDraft;
  periodMs: DurationDraft;
  leaseTtlMs: DurationDraft;
  /** A fixed window's calendar day or month, used instead of windowMs when `on`. */
  calendar: { on: boolean; unit: CalendarUnit; timeZone: string };
  tenantBounds: BoundDraft[];
  /** Candidate rules: the live rule this one proposes new values for ('' : a new rule). */
  replaces: string;
}

export interface PolicyDraft {
  name: string;
  description: string;
  mode: PolicyMode;
  failMode: FailMode;
  redisTimeoutMs: NumberDraft;
  reservations: boolean;
  reservationTtlMs: DurationDraft;
  rules: RuleDraft[];
  candidateRules: RuleDraft[];
}

/** A stored rule, as the API's `Rule` gives it. */
export interface EditableRule extends ReadableRule {
  name: string;
  candidate: boolean;
  replaces?: string | null;
  tenantBounds?: readonly { param: string; min?: number | null; max?: number | null }[] | null;
}

/** A stored policy, as the API's `Policy` gives it (a plan template or a tenant's own). */
export interface EditablePolicy {
  name: string;
  description: string;
  mode: PolicyMode;
  failMode: FailMode;
  redisTimeoutMs: number;
  reservationTtlMs?: number | null;
  rules: readonly EditableRule[];
}

const DEFAULT_UNITS: Record<'windowMs' | 'periodMs' | 'leaseTtlMs', DurationUnit> = {
  windowMs: 'min',
  periodMs: 's',
  leaseTtlMs: 's',
};

const isDuration = (name: ParamName): name is 'windowMs' | 'periodMs' | 'leaseTtlMs' =>
  paramUnit(name) === 'duration';

let lastKey = 0;
const nextKey = () => `rule-${++lastKey}`;

/** The reader's time zone: what a calendar window starts with. */
export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function blankRule(timeZone: string): RuleDraft {
  return {
    key: nextKey(),
    name: '',
    algorithm: 'TOKEN_BUCKET',
    capacity: '',
    refillPerSecond: '',
    leakPerSecond: '',
    limit: '',
    burst: '',
    windowMs: durationDraft(null, DEFAULT_UNITS.windowMs),
    periodMs: durationDraft(null, DEFAULT_UNITS.periodMs),
    leaseTtlMs: durationDraft(null, DEFAULT_UNITS.leaseTtlMs),
    calendar: { on: false, unit: 'DAY', timeZone },
    tenantBounds: [],
    replaces: '',
  };
}

const numberDraft = (value: number | null | undefined): NumberDraft =>
  typeof value === 'number' ? value : '';

/** A bound's value as a field: a duration in the unit its parameter is shown in. */
function valueDraft(param: ParamName, value: number | null | undefined, unit: DurationUnit) {
  return isDuration(param) ? durationDraft(value, unit) : numberDraft(value);
}

function ruleDraft(rule: EditableRule, timeZone: string): RuleDraft {
  const draft: RuleDraft = {
    ...blankRule(rule.calendar?.timeZone ?? timeZone),
    name: rule.name,
    algorithm: rule.algorithm,
    replaces: rule.replaces ?? '',
    capacity: numberDraft(rule.capacity),
    refillPerSecond: numberDraft(rule.refillPerSecond),
    leakPerSecond: numberDraft(rule.leakPerSecond),
    limit: numberDraft(rule.limit),
    burst: numberDraft(rule.burst),
    windowMs: durationDraft(rule.windowMs, DEFAULT_UNITS.windowMs),
    periodMs: durationDraft(rule.periodMs, DEFAULT_UNITS.periodMs),
    leaseTtlMs: durationDraft(rule.leaseTtlMs, DEFAULT_UNITS.leaseTtlMs),
  };
  if (rule.calendar) {
    draft.calendar = {
      on: true,
      unit: rule.calendar.unit as CalendarUnit,
      timeZone: rule.calendar.timeZone,
    };
  }
  draft.tenantBounds = (rule.tenantBounds ?? []).flatMap((bound) => {
    const param = bound.param as ParamName;
    if (!ALGORITHM_PARAMS[rule.algorithm].some((spec) => spec.name === param)) return [];
    const unit = isDuration(param) ? draft[param].unit : 's';
    return [
      { param, min: valueDraft(param, bound.min, unit), max: valueDraft(param, bound.max, unit) },
    ];
  });
  return draft;
}

/** The form's values for `policy`, or a new policy's (one empty rule). */
export function policyDraft(policy: EditablePolicy | undefined, timeZone: string): PolicyDraft {
  return {
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    mode: policy?.mode ?? 'ENFORCE',
    failMode: policy?.failMode ?? 'OPEN',
    redisTimeoutMs: policy?.redisTimeoutMs ?? 50,
    reservations: typeof policy?.reservationTtlMs === 'number',
    reservationTtlMs: durationDraft(policy?.reservationTtlMs ?? 600_000, 'min'),
    rules: policy
      ? policy.rules.filter((r) => !r.candidate).map((r) => ruleDraft(r, timeZone))
      : [blankRule(timeZone)],
    candidateRules: (policy?.rules ?? [])
      .filter((r) => r.candidate)
      .map((r) => ruleDraft(r, timeZone)),
  };
}

/** A parameter's value in the API's unit (ms for durations), undefined while empty. */
export function valueOf(value: ValueDraft): number | undefined {
  if (typeof value === 'object') return durationMs(value);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The parameters a rule's algorithm has, as the form shows them (a calendar has no window). */
export function ruleParams(rule: Pick<RuleDraft, 'algorithm' | 'calendar'>): ParamSpec[] {
  return ALGORITHM_PARAMS[rule.algorithm].filter(
    (spec) => !(spec.name === 'windowMs' && rule.algorithm === 'FIXED_WINDOW' && rule.calendar.on),
  );
}

/** The rule as the plain reading takes it. */
export function readableRule(rule: RuleDraft): ReadableRule {
  const readable: ReadableRule = { algorithm: rule.algorithm };
  for (const spec of ruleParams(rule)) readable[spec.name] = valueOf(rule[spec.name]) ?? null;
  if (rule.algorithm === 'FIXED_WINDOW' && rule.calendar.on) {
    readable.calendar = { unit: rule.calendar.unit, timeZone: rule.calendar.timeZone };
  }
  return readable;
}

/**
 * The rule with another algorithm: the values typed so far are kept (a capacity stays a
 * capacity), the tenants' bounds of parameters it no longer has are dropped.
 */
export function withAlgorithm(rule: RuleDraft, algorithm: Algorithm): RuleDraft {
  const next = { ...rule, algorithm };
  const params = ruleParams(next).map((spec) => spec.name);
  return { ...next, tenantBounds: rule.tenantBounds.filter((b) => params.includes(b.param)) };
}

/** A new bound of `param`, open on both sides, in the unit the parameter is shown in. */
export function blankBound(rule: RuleDraft, param: ParamName): BoundDraft {
  const empty = (): ValueDraft => (isDuration(param) ? { amount: '', unit: rule[param].unit } : '');
  return { param, min: empty(), max: empty() };
}

function ruleInput(rule: RuleDraft, template: boolean, candidate = false): RuleInput {
  const input: RuleInput = { name: rule.name.trim(), algorithm: rule.algorithm };
  if (candidate && rule.replaces) input.replaces = rule.replaces;
  for (const spec of ruleParams(rule)) {
    const value = valueOf(rule[spec.name]);
    if (value !== undefined) input[spec.name] = value;
  }
  if (rule.algorithm === 'FIXED_WINDOW' && rule.calendar.on) {
    input.calendar = { unit: rule.calendar.unit, timeZone: rule.calendar.timeZone };
  }
  if (template) {
    input.tenantBounds = rule.tenantBounds.map((bound) => ({
      param: bound.param,
      min: valueOf(bound.min) ?? null,
      max: valueOf(bound.max) ?? null,
    }));
  }
  return input;
}

/** The form's values as the API's `PolicySettingsInput` (bounds for templates only). */
export function toPolicyInput(draft: PolicyDraft, template: boolean): PolicySettingsInput {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    mode: draft.mode,
    failMode: draft.failMode,
    redisTimeoutMs: valueOf(draft.redisTimeoutMs) ?? null,
    reservationTtlMs: draft.reservations ? (durationMs(draft.reservationTtlMs) ?? null) : null,
    rules: draft.rules.map((rule) => ruleInput(rule, template)),
    // candidate rules are decided in shadow: tenants have nothing to change in them
    candidateRules: draft.candidateRules.map((rule) => ruleInput(rule, false, true)),
  };
}

/** Candidate names have at most 62 characters (their counters are keyed `c-<name>`). */
const MAX_CANDIDATE_NAME = 62;

/**
 * A first proposal to try in shadow: the policy's candidates if it has some, else a copy of each
 * live rule (`<name>-next`, proposing new values for it) to change. Concurrency rules cannot be
 * candidates.
 */
export function proposalDraft(policy: EditablePolicy, timeZone: string): RuleDraft[] {
  const candidates = policy.rules.filter((rule) => rule.candidate);
  if (candidates.length > 0) return candidates.map((rule) => ruleDraft(rule, timeZone));
  return policy.rules
    .filter((rule) => !rule.candidate && rule.algorithm !== 'CONCURRENCY')
    .map((rule) => ({
      ...ruleDraft(rule, timeZone),
      name: `${rule.name.slice(0, MAX_CANDIDATE_NAME - '-next'.length)}-next`,
      replaces: rule.name,
      tenantBounds: [],
    }));
}

/** What the form can tell before sending: empty fields (the API judges the values). */
export function draftProblems(draft: PolicyDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!draft.name.trim()) problems['name'] = 'Enter a name';
  if (draft.reservations && durationMs(draft.reservationTtlMs) === undefined) {
    problems['reservationTtlMs'] = 'Enter a duration';
  }
  if (draft.rules.length === 0) problems['rules'] = 'A policy needs at least one rule';
  for (const list of ['rules', 'candidateRules'] as const) {
    draft[list].forEach((rule, i) => {
      if (!rule.name.trim()) problems[`${list}.${i}.name`] = 'Enter a name';
      for (const spec of ruleParams(rule)) {
        // a GCRA without burst takes its limit
        if (spec.name !== 'burst' && valueOf(rule[spec.name]) === undefined) {
          problems[`${list}.${i}.${spec.name}`] = 'Enter a value';
        }
      }
      if (rule.algorithm === 'FIXED_WINDOW' && rule.calendar.on && !rule.calendar.timeZone) {
        problems[`${list}.${i}.calendar.timeZone`] = 'Choose a time zone';
      }
    });
  }
  return problems;
}

const SETTING_FIELDS = /^(name|description|mode|failMode|redisTimeoutMs|reservationTtlMs)$/;
const RULE_FIELDS =
  /^(rules|candidateRules)\.\d+\.(name|algorithm|replaces|capacity|refillPerSecond|leakPerSecond|limit|windowMs|periodMs|burst|leaseTtlMs|calendar\.(unit|timeZone)|tenantBounds\.\d+\.(param|min|max))$/;

/** "Rule 2", "Candidate rule 1": where a path is, for an issue no field shows. */
function placeOf(path: string): string | undefined {
  const [list, index] = path.split('.');
  if (index === undefined || !/^\d+$/.test(index)) return undefined;
  const n = Number(index) + 1;
  if (list === 'rules') return `Rule ${n}`;
  if (list === 'candidateRules') return `Candidate rule ${n}`;
  return undefined;
}

/**
 * The API's field issues as the form's errors: those of a field the form has, on it; the rest
 * (about a whole rule, or about the tenants a template would leave invalid) apart, for an alert.
 */
export function editorErrors(issues: readonly FieldIssue[]): {
  fields: Record<string, string>;
  general: string[];
} {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const issue of issues) {
    let path = issue.field.startsWith('input.') ? issue.field.slice('input.'.length) : '';
    // a calendar refused as a whole is shown on its time zone
    if (/^(rules|candidateRules)\.\d+\.calendar$/.test(path)) path += '.timeZone';
    if (SETTING_FIELDS.test(path) || RULE_FIELDS.test(path)) {
      fields[path] ??= issue.message;
      continue;
    }
    const place = placeOf(path);
    const message = place ? `${place}: ${issue.message}` : issue.message;
    if (!general.includes(message)) general.push(message);
  }
  return { fields, general };
}

/**
 * A refused save as the editor shows it: each field's issue on its field, and the alert's lines
 * (the issues no field shows, else a pointer to the fields, else the API's message).
 */
export function editorFailure({ issues, message }: Pick<ApiError, 'issues' | 'message'>): {
  fields: Record<string, string>;
  lines: string[];
} {
  const { fields, general } = editorErrors(issues);
  if (general.length > 0) return { fields, lines: general };
  return {
    fields,
    lines: [Object.keys(fields).length > 0 ? 'Check the fields marked below.' : message],
  };
}

/** A rule whose counters a change starts afresh, and its state before and after. */
export interface AfreshRule {
  rule: string;
  candidate: boolean;
  before: string;
  after: string;
}

type Stateful = Pick<ReadableRule, 'algorithm' | 'windowMs' | 'calendar'>;

/**
 * What a rule's counters are keyed by, as the engine keys them (its algorithm, and a window
 * algorithm's length or calendar unit), in words. A calendar's time zone is not part of it.
 */
function stateOf(rule: Stateful): string {
  const name = ALGORITHM_LABELS[rule.algorithm];
  if (!WINDOWED.has(rule.algorithm)) return name;
  if (rule.algorithm === 'FIXED_WINDOW' && rule.calendar) {
    return `${name} per calendar ${rule.calendar.unit.toLowerCase()}`;
  }
  return typeof rule.windowMs === 'number' ? `${name} per ${formatDuration(rule.windowMs)}` : name;
}

/**
 * The rules of a stored policy whose counters a change would leave behind: same name (and both
 * live or both candidate), another algorithm, or a window algorithm with another window. The
 * API's `countersReset` says the same after the change, once per tenant.
 */
export function countersAfresh(
  before: readonly EditableRule[],
  after: PolicySettingsInput,
): AfreshRule[] {
  const next = [
    ...after.rules.map((rule) => ({ rule, candidate: false })),
    ...(after.candidateRules ?? []).map((rule) => ({ rule, candidate: true })),
  ];
  return next.flatMap(({ rule, candidate }) => {
    const was = before.find((r) => r.name === rule.name && r.candidate === candidate);
    if (!was) return [];
    const previous = stateOf(was);
    const state = stateOf(rule);
    return previous === state
      ? []
      : [{ rule: rule.name, candidate, before: previous, after: state }];
  });
}
