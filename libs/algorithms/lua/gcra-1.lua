--[[
  GCRA for one rule.

  KEYS[1]  string: the theoretical arrival time (us)
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  cost: integer >= 0; 0 peeks (evaluates, writes nothing)
  ARGV[3]  burst: how many units may pass at once (integer)
  ARGV[4]  interval: microseconds per unit of cost (integer, period / limit rounded up)

  Returns  { allowed (0|1), limit, remaining, resetAt (ms epoch), retryAfter (ms, -1 = never),
             delayMs }; a denial writes nothing.
]]
--- @include "includes/gcra"

return sluice_run_single(sluice_algorithms['gcra'])
