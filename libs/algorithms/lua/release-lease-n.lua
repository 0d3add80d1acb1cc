--[[
  Releases a lease: removes its nonce from every concurrency rule of the policy, in one call.
  numberOfKeys varies, so it is given with every call.

  KEYS     the key of every concurrency rule of the policy (sorted sets of lease nonces scored
           by expiry); all share one hash tag
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  the lease's nonce

  An expired lease that is still stored (leases are pruned by the next lease taken) is removed
  too but was no longer held, so releasing twice, or after expiry, is harmless and says so.

  Returns  { released (1 when a lease still in force was removed, else 0) }
]]
--- @include "includes/common"

local now = sluice_now(ARGV[1])
local released = 0
for _, key in ipairs(KEYS) do
  local expiry = tonumber(redis.call('ZSCORE', key, ARGV[2]))
  if expiry then
    redis.call('ZREM', key, ARGV[2])
    if expiry > now then
      released = 1
    end
  end
end
return { released }
