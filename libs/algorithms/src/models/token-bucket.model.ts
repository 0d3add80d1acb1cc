import { RETRY_NEVER, toDecision } from '../decision';
import type { TokenBucketRule } from '../rule-spec';
import { MAX_DEBT_US, settled, withCommit, type ModelResult, type SettleStep } from './model';

export interface TokenBucketState {
  algorithm: 'token_bucket';
  /** Level at `atUs`; negative while in debt. */
  tokens: number;
  atUs: number;
}

/** The level at `atUs` from the stored one (refilled up to the capacity). */
function levelAt(stored: number, lastUs: number, rule: TokenBucketRule, atUs: number): number {
  return Math.min(rule.capacity, stored + ((atUs - lastUs) * rule.refillPerSecond) / 1e6);
}

/** The level now (refilled up to the capacity) and the time it is taken at. */
function level(
  state: TokenBucketState | undefined,
  rule: TokenBucketRule,
  nowUs: number,
): { tokens: number; atUs: number } {
  const lastUs = state?.atUs ?? nowUs;
  // never refill backwards when the clock is behind the stored time
  const atUs = Math.max(nowUs, lastUs);
  return { tokens: levelAt(state?.tokens ?? rule.capacity, lastUs, rule, atUs), atUs };
}

/**
 * The first whole µs after `atUs` at which the level reaches `cost`. The closed form can land a
 * µs off either way through float error (a rate such as 49.999999999999964/s), so it is moved to
 * where the level formula itself, the one a later check runs, first admits the cost.
 */
function waitUs(
  state: TokenBucketState,
  rule: TokenBucketRule,
  atUs: number,
  tokens: number,
  cost: number,
): number {
  const admits = (us: number) => levelAt(state.tokens, state.atUs, rule, atUs + us) >= cost;
  let wait = Math.ceil(((cost - tokens) / rule.refillPerSecond) * 1e6);
  while (wait > 1 && admits(wait - 1)) wait -= 1;
  while (!admits(wait)) wait += 1;
  return wait;
}

/** tokens = min(capacity, stored + elapsed * rate); a cost passes when tokens >= cost. */
export function tokenBucketModel(
  state: TokenBucketState | undefined,
  rule: TokenBucketRule,
  nowUs: number,
  cost: number,
): ModelResult<TokenBucketState> {
  const { capacity, refillPerSecond: rate } = rule;
  const { tokens, atUs } = level(state, rule, nowUs);
  const allowed = cost <= capacity && tokens >= cost;
  const left = allowed ? tokens - cost : tokens;
  const fullInUs = ((capacity - left) / rate) * 1e6;
  let retryUs = 0;
  if (cost > capacity) retryUs = RETRY_NEVER;
  // denied below the capacity: a state exists (no state is a full bucket)
  else if (!allowed && state) retryUs = atUs - nowUs + waitUs(state, rule, atUs, tokens, cost);
  const decision = toDecision({
    allowed,
    limit: capacity,
    remaining: Math.floor(left),
    resetAtUs: atUs + fullInUs,
    retryUs,
    delayUs: 0,
  });
  return withCommit(
    decision,
    cost,
    { algorithm: 'token_bucket', tokens: left, atUs },
    atUs - nowUs + fullInUs,
  );
}

/** An overrun takes the level below 0 (debt); a refund puts tokens back, up to the capacity. */
export function tokenBucketSettle(
  state: TokenBucketState | undefined,
  rule: TokenBucketRule,
  nowUs: number,
  delta: number,
): SettleStep<TokenBucketState> {
  const { capacity, refillPerSecond: rate } = rule;
  const { tokens, atUs } = level(state, rule, nowUs);
  let after = tokens - delta;
  let charged = delta;
  if (delta > 0) {
    after = Math.max(after, capacity - (MAX_DEBT_US * rate) / 1e6);
  } else if (after > capacity) {
    after = capacity;
    // `|| 0`: a refund of less than one token reports 0, not -0
    charged = -Math.floor(capacity - tokens) || 0;
  }
  if (after === tokens) return { charged: 0 };
  return settled(
    charged,
    { algorithm: 'token_bucket', tokens: after, atUs },
    atUs - nowUs + ((capacity - after) / rate) * 1e6,
  );
}
