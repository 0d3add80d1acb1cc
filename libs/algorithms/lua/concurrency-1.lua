--[[
  Concurrency leases for one rule: at most `limit` leases in flight, each expiring by itself.

  KEYS[1]  sorted set: member = lease nonce, score = the lease's expiry (us)
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  cost: integer >= 0; > 0 takes a lease (one slot, whatever the cost), 0 peeks
  ARGV[3]  limit: most leases in flight (integer)
  ARGV[4]  lease time to live in us (integer)
  ARGV[5]  the nonce of the lease to take ('' for a peek)

  Returns  { allowed (0|1), limit, remaining, resetAt (ms epoch: the earliest lease expiry),
             retryAfter (ms), delayMs }; a denial writes nothing.
]]
--- @include "includes/concurrency"

return sluice_run_single(sluice_algorithms['concurrency'])
