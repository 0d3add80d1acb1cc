import { checkRule } from '../limiters';
import { evaluateRule, type RuleState } from '../models/composite.model';
import type { RuleSpec } from '../rule-spec';
import type { RedisLike } from '../scripts';
import { toMicros } from '../validate';

/**
 * Replays arrivals of cost 1 through the rule's Lua script at `startMs + offset` each (the
 * injected clock), one after another on `key`; whether each was admitted. The key should be a
 * scratch one: the caller deletes its keys (`ruleKeys`) afterwards.
 */
export async function replayInRedis(
  redis: RedisLike,
  key: string,
  rule: RuleSpec,
  startMs: number,
  offsets: readonly number[],
): Promise<boolean[]> {
  const admitted: boolean[] = [];
  // one at a time: a first call that loads its script is sent again, after any queued behind it
  for (const offset of offsets) {
    admitted.push((await checkRule(redis, key, rule, { now: startMs + offset })).allowed);
  }
  return admitted;
}

/** The same replay through the rule's reference model: what the Lua must answer. */
export function replayModel(
  rule: RuleSpec,
  startMs: number,
  offsets: readonly number[],
): boolean[] {
  let state: RuleState | undefined;
  return offsets.map((offset) => {
    const result = evaluateRule(rule, state, toMicros(startMs + offset), 1);
    if (result.commit) state = result.commit.state;
    return result.decision.allowed;
  });
}
