--[[
  Token bucket for one rule: evaluate, then commit if allowed and cost > 0.

  KEYS[1]  hash { tokens, ts }
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  cost: integer >= 0; 0 peeks (evaluates, writes nothing)
  ARGV[3]  capacity (integer)
  ARGV[4]  refill rate in tokens per second (may be fractional)

  Returns  { allowed (0|1), limit, remaining, resetAt (ms epoch), retryAfter (ms, -1 = never),
             delayMs }; a denial writes nothing.
]]
--- @include "includes/token-bucket"

return sluice_run_single(sluice_algorithms['token_bucket'])
