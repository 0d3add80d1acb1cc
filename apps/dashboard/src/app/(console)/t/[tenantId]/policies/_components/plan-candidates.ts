import type { CalendarUnit, RuleInput } from '@/generated/gql/graphql';
import { valueOf } from '@/components/policy-editor/policy-draft';
import { durationDraft } from '@/components/policy-editor/duration';
import { paramUnit } from '@/lib/rules';
import type { ChangeableRule, ChangeValues } from './plan-change';
import { isParamName, type RuleView } from './policy-reading';

/**
 * Try in shadow on a plan's policy: the tenant's proposed values, from the same form as a change
 * of values, sent as candidates (`tryPlanPolicyCandidates`) that each replace the rule they are
 * for, named `<rule>-trial` (an operator's candidates of the template are `<rule>-next`).
 */

/** A rule as the API's `RuleInput`, from its effective values. */
export function ruleInputOf(rule: RuleView): RuleInput {
  const input: RuleInput = { name: rule.name, algorithm: rule.algorithm };
  for (const param of rule.params) {
    if (param.calendar) {
      input.calendar = {
        unit: param.calendar.unit as CalendarUnit,
        timeZone: param.calendar.timeZone,
      };
    } else if (typeof param.value === 'number' && isParamName(rule.algorithm, param.name)) {
      input[param.name] = param.value;
    }
  }
  return input;
}

/**
 * The form's first values: the tenant's running candidate's for a rule that has one, else the
 * values its checks use now.
 */
export function initialTryValues(
  rules: readonly ChangeableRule[],
  all: readonly RuleView[],
  initial: ChangeValues,
): ChangeValues {
  const values: ChangeValues = structuredClone(initial);
  for (const candidate of all) {
    if (!candidate.candidate || candidate.source !== 'TENANT' || !candidate.replaces) continue;
    const rule = rules.find((r) => r.name === candidate.replaces);
    if (!rule) continue;
    for (const param of rule.params) {
      const value = candidate.params.find((p) => p.name === param.name)?.value;
      if (typeof value !== 'number') continue;
      values[rule.name] = {
        ...values[rule.name],
        [param.name]: paramUnit(param.name) === 'duration' ? durationDraft(value, 'min') : value,
      };
    }
  }
  return values;
}

/**
 * The candidates to run: one per rule whose proposed values differ from those its checks use
 * now, with every other value as it is (an empty field: the plan's value).
 */
export function candidateInputs(
  rules: readonly ChangeableRule[],
  all: readonly RuleView[],
  values: ChangeValues,
): RuleInput[] {
  return rules.flatMap((rule) => {
    const live = all.find((r) => r.name === rule.name && !r.candidate);
    if (!live) return [];
    const input: RuleInput = {
      ...ruleInputOf(live),
      name: `${rule.name}-trial`,
      replaces: rule.name,
    };
    let differs = false;
    for (const param of rule.params) {
      const draft = values[rule.name]?.[param.name];
      const value = draft === undefined ? undefined : valueOf(draft);
      if (value === undefined) {
        // empty: the plan's value, which the API fills in
        if (param.source === 'TENANT') differs = true;
        delete input[param.name];
      } else if (value !== param.current) {
        input[param.name] = value;
        differs = true;
      }
    }
    return differs ? [input] : [];
  });
}
