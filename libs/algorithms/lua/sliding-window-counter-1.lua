--[[
  Sliding window counter for one rule.

  KEYS[1]  hash { start, prev, curr }
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  cost: integer >= 0; 0 peeks (evaluates, writes nothing)
  ARGV[3]  limit (integer)
  ARGV[4]  window length in us

  Returns  { allowed (0|1), limit, remaining, resetAt (ms epoch), retryAfter (ms, -1 = never),
             delayMs }; a denial writes nothing.
]]
--- @include "includes/sliding-window-counter"

return sluice_run_single(sluice_algorithms['sliding_window_counter'])
