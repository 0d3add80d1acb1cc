import { evaluateRule, type RuleSpec, type RuleState } from '@sluice/algorithms';

const MINUTE_MS = 60_000;
const MINUTE_US = 60_000_000;
const DAY_MS = 86_400_000;

export interface SpendReplay {
  /** Some of the spend would have been denied. */
  exceeded: boolean;
  /** The cost the rule would have denied. */
  deniedCost: number;
}

/**
 * How long the rule remembers spend (ms): a window's length, or the time a bucket or GCRA takes
 * to come back from empty. A calendar window counts as a day (a month is longer still).
 */
export function memoryMs(rule: RuleSpec): number {
  switch (rule.algorithm) {
    case 'token_bucket':
      return (rule.capacity / rule.refillPerSecond) * 1000;
    case 'leaky_bucket':
      return (rule.capacity / rule.leakPerSecond) * 1000;
    case 'gcra':
      return rule.periodMs;
    case 'fixed_window':
      return rule.calendar ? DAY_MS : rule.windowMs;
    case 'sliding_window_log':
    case 'sliding_window_counter':
      return rule.windowMs;
  }
}

/**
 * Arrivals each minute's spend is split into: one a second for rules that remember less than a
 * minute, where timing within the minute decides; fewer for longer ones, where only totals do
 * (and a sliding log's entries, each one an arrival, stay few).
 */
export function slicesPerMinute(rule: RuleSpec): number {
  const memory = memoryMs(rule);
  if (memory < MINUTE_MS) return 60;
  return memory < 10 * MINUTE_MS ? 6 : 1;
}

/**
 * Replays what one identifier spent per minute (`costs[i]` in epoch minute `firstMinute + i`)
 * through `rule`'s reference model, starting from empty counters: each minute's cost split into
 * `slicesPerMinute` arrivals spread evenly over it. An arrival the rule refuses in full still
 * spends what would have fitted (as requests of cost 1 would have), so a slice larger than the
 * rule's burst does not count as denied whole. An approximation: bursts within a slice are not
 * known, and spend before `firstMinute` is not counted.
 */
export function replaySpend(
  rule: RuleSpec,
  firstMinute: number,
  costs: readonly number[],
): SpendReplay {
  const perMinute = slicesPerMinute(rule);
  let state: RuleState | undefined;
  let deniedCost = 0;
  const spend = (atUs: number, cost: number): number => {
    const result = evaluateRule(rule, state, atUs, cost);
    if (result.commit) state = result.commit.state;
    return result.decision.allowed ? cost : 0;
  };
  costs.forEach((cost, i) => {
    const total = Math.round(cost);
    if (total <= 0) return;
    const slices = Math.min(total, perMinute);
    const base = Math.floor(total / slices);
    const extra = total - base * slices;
    const minuteUs = (firstMinute + i) * MINUTE_US;
    for (let k = 0; k < slices; k += 1) {
      const slice = base + (k < extra ? 1 : 0);
      const atUs = minuteUs + Math.floor((k * MINUTE_US) / slices);
      let spent = spend(atUs, slice);
      if (spent === 0) {
        const fits = Math.floor(evaluateRule(rule, state, atUs, 0).decision.remaining);
        if (fits > 0) spent = spend(atUs, Math.min(fits, slice - 1));
      }
      deniedCost += slice - spent;
    }
  });
  return { exceeded: deniedCost > 0, deniedCost };
}
