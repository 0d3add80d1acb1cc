import { formatParam, PARAM_NAMES, paramWord, type ParamName } from '@/lib/rules';

export interface Calendar {
  unit: string;
  timeZone: string;
}

/** An override's parameters for one rule, as the API lists them. */
export type RuleChangeView = { name: string; calendar?: Calendar | null } & Partial<
  Record<ParamName, number | null>
>;

/** An override's rules in words, one line a rule: "burst: capacity 40, refill 2/s". */
export function describeRuleChanges(rules: readonly RuleChangeView[]): string[] {
  return rules.map((rule) => {
    const parts: string[] = [];
    for (const name of PARAM_NAMES) {
      const value = rule[name];
      if (typeof value === 'number') parts.push(`${paramWord(name)} ${formatParam(name, value)}`);
    }
    if (rule.calendar) {
      parts.push(
        `window a calendar ${rule.calendar.unit.toLowerCase()} (${rule.calendar.timeZone})`,
      );
    }
    return `${rule.name}: ${parts.join(', ')}`;
  });
}
