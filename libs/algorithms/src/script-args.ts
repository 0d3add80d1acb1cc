import { calendarBoundaries } from './calendar';
import type { Decision } from './decision';
import { emissionIntervalUs } from './models/virtual-schedule';
import type { AnyRuleSpec } from './rule-spec';

/** KEYS of a rule's script: its base key, plus `<key>:sum` beside a sliding log's sorted set. */
export function ruleKeys(rule: AnyRuleSpec, key: string): string[] {
  return rule.algorithm === 'sliding_window_log' ? [key, `${key}:sum`] : [key];
}

export interface ParamOptions {
  /** The nonce of the lease a concurrency rule takes ('' for a peek). */
  lease?: string | undefined;
  /** A reservation's time to live: calendar boundaries then cover it too (see the receipt). */
  horizonMs?: number;
}

/**
 * A rule's parameters as its script reads them (from its ARGV[3] on), times in microseconds.
 * `clientNowMs` only places calendar boundaries; the script decides with its own now.
 * String(x) is the shortest text that parses back to the same double, so rates survive exactly.
 */
export function ruleParams(
  rule: AnyRuleSpec,
  clientNowMs: number,
  options: ParamOptions = {},
): string[] {
  switch (rule.algorithm) {
    case 'token_bucket':
      return [String(rule.capacity), String(rule.refillPerSecond)];
    case 'leaky_bucket':
      return [String(rule.capacity), String(emissionIntervalUs(1e6, rule.leakPerSecond))];
    case 'fixed_window':
      if (rule.calendar) {
        const boundaries = calendarBoundaries(
          rule.calendar,
          clientNowMs,
          clientNowMs + (options.horizonMs ?? 0),
        );
        return [
          String(rule.limit),
          '0',
          String(boundaries.length),
          ...boundaries.map((ms) => String(ms * 1000)),
        ];
      }
      return [String(rule.limit), String(rule.windowMs * 1000), '0'];
    case 'sliding_window_log':
    case 'sliding_window_counter':
      return [String(rule.limit), String(rule.windowMs * 1000)];
    case 'gcra':
      return [
        String(rule.burst ?? rule.limit),
        String(emissionIntervalUs(rule.periodMs * 1000, rule.limit)),
      ];
    case 'concurrency':
      return [String(rule.limit), String(rule.leaseTtlMs * 1000), options.lease ?? ''];
  }
}

/** An optional time in integer microseconds: '' when absent (no now: the Redis clock). */
export function timeArg(us: number | undefined): string {
  return us === undefined ? '' : String(us);
}

/** One rule's six reply integers, starting at `offset`. */
export function replyDecision(reply: readonly number[], offset: number): Decision {
  const field = (i: number): number => {
    const value = reply[offset + i];
    if (value === undefined) throw new Error(`short script reply: ${JSON.stringify(reply)}`);
    return value;
  };
  return {
    allowed: field(0) === 1,
    limit: field(1),
    remaining: field(2),
    resetAt: field(3),
    retryAfter: field(4),
    delayMs: field(5),
  };
}
