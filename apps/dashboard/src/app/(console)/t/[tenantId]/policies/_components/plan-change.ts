import type { Algorithm, RuleChangeInput, ValueSource } from '@/generated/gql/graphql';
import type { FieldIssue } from '@/lib/errors';
import { formErrors } from '@/lib/errors';
import { durationDraft } from '@/components/policy-editor/duration';
import { valueOf, type AfreshRule, type ValueDraft } from '@/components/policy-editor/policy-draft';
import {
  ALGORITHM_PARAMS,
  formatDuration,
  formatParam,
  paramUnit,
  WINDOWED,
  type ParamName,
} from '@/lib/rules';
import type { RuleView } from './policy-reading';

/** A parameter the plan lets the tenant change, with its value now and the plan's range. */
export interface ChangeableParam {
  name: ParamName;
  label: string;
  integer: boolean;
  /** The value the tenant's checks use now (the plan's, or the tenant's change). */
  current: number | null;
  source: ValueSource;
  min: number | null;
  max: number | null;
}

export interface ChangeableRule {
  name: string;
  algorithm: Algorithm;
  params: ChangeableParam[];
}

/**
 * The live rules of a plan template with the parameters the plan opens to the tenant
 * (`changeable`), in the algorithm's order; rules with none are left out. A calendar is not a
 * number: the API takes no tenant change of it.
 */
export function changeableRules(rules: readonly RuleView[]): ChangeableRule[] {
  return rules.flatMap((rule) => {
    if (rule.candidate) return [];
    const params = ALGORITHM_PARAMS[rule.algorithm].flatMap((spec): ChangeableParam[] => {
      const param = rule.params.find((p) => p.name === spec.name);
      if (!param?.changeable) return [];
      return [
        {
          ...spec,
          current: param.value ?? null,
          source: param.source,
          min: param.min ?? null,
          max: param.max ?? null,
        },
      ];
    });
    return params.length === 0 ? [] : [{ name: rule.name, algorithm: rule.algorithm, params }];
  });
}

/**
 * The form's values: rule → parameter → its draft (a duration with its unit; '' while empty:
 * the plan's value).
 */
export type ChangeValues = Record<string, Partial<Record<ParamName, ValueDraft>>>;

/** Every changeable parameter's field, holding the value the tenant's checks use now. */
export function initialChangeValues(rules: readonly ChangeableRule[]): ChangeValues {
  return Object.fromEntries(
    rules.map((rule) => [
      rule.name,
      Object.fromEntries(
        rule.params.map((p): [ParamName, ValueDraft] => [
          p.name,
          paramUnit(p.name) === 'duration' ? durationDraft(p.current, 'min') : (p.current ?? ''),
        ]),
      ),
    ]),
  );
}

/** Why a value cannot be sent (null: it can, or it is empty); the plan's bounds are enforced. */
export function paramProblem(
  param: Pick<ChangeableParam, 'name' | 'integer' | 'min' | 'max'>,
  value: number | undefined,
): string | null {
  if (value === undefined) return null;
  if (param.integer && !Number.isInteger(value)) return 'Enter a whole number';
  if (param.min !== null && value < param.min) {
    return `At least ${formatParam(param.name, param.min)} (the plan's bound)`;
  }
  if (param.max !== null && value > param.max) {
    return `At most ${formatParam(param.name, param.max)} (the plan's bound)`;
  }
  return null;
}

/** The form's errors for values out of the plan's bounds, on their fields (`rules.burst.capacity`). */
export function changeProblems(
  rules: readonly ChangeableRule[],
  values: ChangeValues,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const rule of rules) {
    for (const param of rule.params) {
      const draft = values[rule.name]?.[param.name];
      const problem = paramProblem(param, draft === undefined ? undefined : valueOf(draft));
      if (problem) problems[`rules.${rule.name}.${param.name}`] = problem;
    }
  }
  return problems;
}

/**
 * The change to send: the tenant's values replace its earlier change, so every parameter it
 * keeps different from the plan is sent; a plan value left as it is, or an empty field, follows
 * the plan (and an empty list goes back to the plan's values).
 */
export function changeInputs(
  rules: readonly ChangeableRule[],
  values: ChangeValues,
): RuleChangeInput[] {
  return rules.flatMap((rule) => {
    const input: RuleChangeInput = { name: rule.name };
    let set = false;
    for (const param of rule.params) {
      const draft = values[rule.name]?.[param.name];
      const value = draft === undefined ? undefined : valueOf(draft);
      if (value === undefined) continue;
      if (param.source === 'PLAN' && value === param.current) continue;
      input[param.name] = value;
      set = true;
    }
    return set ? [input] : [];
  });
}

/**
 * The windows a change moves (their rules' counters start afresh for every identifier without
 * an override of its own): a window set to another value, or a tenant's window going back to
 * the plan's (whose value the tenant does not see).
 */
export function windowChanges(
  rules: readonly ChangeableRule[],
  sent: readonly RuleChangeInput[],
): AfreshRule[] {
  return rules.flatMap((rule) => {
    const window = rule.params.find((p) => p.name === 'windowMs');
    if (!WINDOWED.has(rule.algorithm) || !window || window.current === null) return [];
    const next = sent.find((input) => input.name === rule.name)?.windowMs ?? undefined;
    const before = formatDuration(window.current);
    // a live rule's window (a change never touches candidates)
    const change = { rule: rule.name, candidate: false, before };
    if (next !== undefined) {
      return next === window.current ? [] : [{ ...change, after: formatDuration(next) }];
    }
    return window.source === 'TENANT' ? [{ ...change, after: 'the plan’s window' }] : [];
  });
}

const PARAM_NAMES: ReadonlySet<string> = new Set(
  Object.values(ALGORITHM_PARAMS).flatMap((specs) => specs.map((spec) => spec.name)),
);

/**
 * The API's field issues as the form's errors: `input.rules.0.capacity` names the first rule
 * sent, which the form knows by its name (`rules.burst.capacity`). Anything else is returned
 * apart, for the form's alert.
 */
export function changeErrors(
  issues: readonly FieldIssue[],
  sent: readonly RuleChangeInput[],
  /** The input's list the issues name: `rules`, or the `candidateRules` tried in shadow. */
  list: 'rules' | 'candidateRules' = 'rules',
): { fields: Record<string, string>; general: string[] } {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const [path, message] of Object.entries(formErrors(issues))) {
    const [head, index, param] = path.split('.');
    const rule = head === list && index !== undefined ? sent[Number(index)]?.name : undefined;
    // a parameter has its field; a candidate's name or link does not
    if (rule !== undefined && param !== undefined && PARAM_NAMES.has(param)) {
      fields[`rules.${rule}.${param}`] = message;
    } else general.push(rule ? `${rule}: ${message}` : `${path}: ${message}`);
  }
  return { fields, general };
}
