import { RETRY_NEVER, toDecision } from '../decision';
import type { TokenBucketRule } from '../rule-spec';
import { withCommit, type ModelResult } from './model';

export interface TokenBucketState {
  algorithm: 'token_bucket';
  /** Level at `atUs`; negative while in debt. */
  tokens: number;
  atUs: number;
}

/** tokens = min(capacity, stored + elapsed * rate); a cost passes when tokens >= cost. */
export function tokenBucketModel(
  state: TokenBucketState | undefined,
  rule: TokenBucketRule,
  nowUs: number,
  cost: number,
): ModelResult<TokenBucketState> {
  const { capacity, refillPerSecond: rate } = rule;
  const lastUs = state?.atUs ?? nowUs;
  // never refill backwards when the clock is behind the stored time
  const atUs = Math.max(nowUs, lastUs);
  const tokens = Math.min(capacity, (state?.tokens ?? capacity) + ((atUs - lastUs) * rate) / 1e6);
  const allowed = cost <= capacity && tokens >= cost;
  const level = allowed ? tokens - cost : tokens;
  const fullInUs = ((capacity - level) / rate) * 1e6;
  let retryUs = 0;
  if (cost > capacity) retryUs = RETRY_NEVER;
  else if (!allowed) retryUs = atUs - nowUs + ((cost - tokens) / rate) * 1e6;
  const decision = toDecision({
    allowed,
    limit: capacity,
    remaining: Math.floor(level),
    resetAtUs: atUs + fullInUs,
    retryUs,
    delayUs: 0,
  });
  return withCommit(
    decision,
    cost,
    { algorithm: 'token_bucket', tokens: level, atUs },
    atUs - nowUs + fullInUs,
  );
}
