import { ruleStateTag, type AnyRuleSpec } from '@sluice/algorithms';
import type { CompiledOverride, CompiledPolicy, UnpublishedTenant } from '@sluice/policy';

/**
 * A rule whose counters a change leaves behind: its algorithm or its window changed (the state
 * tag in its keys, see `ruleStateTag`), for every identifier or for those of one override. It
 * decides on the keys of its new state: fresh, or what it left there when it last had that state
 * (a rollback) if they have not expired.
 */
export interface CounterReset {
  tenantId: string;
  /** The policy's name after the change. */
  policy: string;
  rule: string;
  candidate: boolean;
  /** Null: every identifier; else the override's identifier (`prefix*` for a prefix). */
  override: string | null;
  /** The rule's state before and after, e.g. `fixed_window per 60000 ms`. */
  before: string;
  after: string;
}

interface NamedRule {
  name: string;
  candidate: boolean;
  rule: AnyRuleSpec;
}

/** Every rule the engine keys for a policy: live rate rules, concurrency rules, candidates. */
function rulesOf(policy: CompiledPolicy): NamedRule[] {
  return [
    ...policy.rules.map(({ name, rule }) => ({ name, candidate: false, rule })),
    ...(policy.concurrencyRules ?? []).map(({ name, rule }) => ({ name, candidate: false, rule })),
    ...policy.candidateRules.map(({ name, rule }) => ({ name, candidate: true, rule })),
  ];
}

/** The spec an override gives a rule, as the engine picks it (by name), or undefined. */
function overridden(override: CompiledOverride | undefined, rule: NamedRule) {
  if (!override) return undefined;
  return rule.rule.algorithm === 'concurrency'
    ? override.concurrencyRules?.[rule.name]
    : override.rules[rule.name];
}

const targetOf = (override: CompiledOverride) => `${override.match}:${override.identifier}`;
const shown = (override: CompiledOverride) =>
  override.match === 'prefix' ? `${override.identifier}*` : override.identifier;

/** How a rule's stored state is described to people: its algorithm and its window. */
export function describeRuleState(rule: AnyRuleSpec): string {
  switch (rule.algorithm) {
    case 'fixed_window':
      return rule.calendar
        ? `fixed_window per calendar ${rule.calendar.unit}`
        : `fixed_window per ${rule.windowMs} ms`;
    case 'sliding_window_log':
    case 'sliding_window_counter':
      return `${rule.algorithm} per ${rule.windowMs} ms`;
    default:
      return rule.algorithm;
  }
}

/**
 * The rules whose counters a change from `before` to `after` leaves behind: same policy (by id),
 * same rule name, another state tag. New rules and policies, and renamed ones, start afresh too
 * but are not listed: nothing of theirs is lost.
 */
export function counterResets(before: UnpublishedTenant, after: UnpublishedTenant): CounterReset[] {
  const resets: CounterReset[] = [];
  const previous = new Map(Object.values(before.policies).map((p) => [p.id, p]));
  for (const policy of Object.values(after.policies)) {
    const old = previous.get(policy.id);
    if (!old) continue;
    const oldRules = rulesOf(old);
    const oldOverrides = new Map(old.overrides.map((o) => [targetOf(o), o]));
    const newOverrides = new Map(policy.overrides.map((o) => [targetOf(o), o]));
    for (const rule of rulesOf(policy)) {
      const was = oldRules.find((r) => r.name === rule.name && r.candidate === rule.candidate);
      if (!was) continue;
      const reset = (from: AnyRuleSpec, to: AnyRuleSpec, override: CompiledOverride | null) => {
        resets.push({
          tenantId: after.tenantId,
          policy: policy.name,
          rule: rule.name,
          candidate: rule.candidate,
          override: override && shown(override),
          before: describeRuleState(from),
          after: describeRuleState(to),
        });
      };
      const baseReset = ruleStateTag(was.rule) !== ruleStateTag(rule.rule);
      if (baseReset) reset(was.rule, rule.rule, null);
      for (const target of new Set([...oldOverrides.keys(), ...newOverrides.keys()])) {
        const oldOverride = oldOverrides.get(target);
        const newOverride = newOverrides.get(target);
        const from = overridden(oldOverride, was);
        const to = overridden(newOverride, rule);
        // identifiers the override leaves to the rule itself are in the reset above
        if (!from && !to) continue;
        const fromSpec = from ?? was.rule;
        const toSpec = to ?? rule.rule;
        if (ruleStateTag(fromSpec) === ruleStateTag(toSpec)) continue;
        reset(fromSpec, toSpec, (newOverride ?? oldOverride) as CompiledOverride);
      }
    }
  }
  return resets;
}
