--[[
  Fixed window (epoch-aligned or calendar) for one rule.

  KEYS[1]  hash { start, count }
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  cost: integer >= 0; 0 peeks (evaluates, writes nothing)
  ARGV[3]  limit (integer)
  ARGV[4]  window length in us (epoch-aligned), or 0 for calendar windows
  ARGV[5]  n: number of calendar boundaries that follow (0 when ARGV[4] > 0)
  ARGV[6..5+n]  calendar window boundaries in us, ascending (previous, current, next, ...)

  Returns  { allowed (0|1), limit, remaining, resetAt (ms epoch), retryAfter (ms, -1 = never),
             delayMs }; a denial writes nothing.
]]
--- @include "includes/fixed-window"

return sluice_run_single(sluice_algorithms['fixed_window'])
