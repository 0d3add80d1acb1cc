--[[
  Leaky bucket (virtual scheduling) for one rule; delayMs is the wait in the queue.

  KEYS[1]  string: the time (us) the queue drains empty
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  cost: integer >= 0; 0 peeks (evaluates, writes nothing)
  ARGV[3]  capacity: queue size in cost units (integer)
  ARGV[4]  interval: microseconds per unit of cost (integer, 1/rate rounded up)

  Returns  { allowed (0|1), limit, remaining, resetAt (ms epoch), retryAfter (ms, -1 = never),
             delayMs }; a denial writes nothing.
]]
--- @include "includes/leaky-bucket"

return sluice_run_single(sluice_algorithms['leaky_bucket'])
