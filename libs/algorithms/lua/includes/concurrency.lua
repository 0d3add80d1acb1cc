--- @include "includes/common"

--[[
  Concurrency leases (at most `limit` in flight). State: sorted set, one member per lease (the
  caller's nonce) scored by its expiry (us); a lease counts while its expiry is after now.
  Params: limit, lease time to live (us), the nonce of the lease this check takes. Cost only
  says whether a lease is taken (> 0) or the check peeks (0); one lease is one slot whatever the
  cost. Leases carry no receipt: they are released (release-lease-n), not settled.
]]

local function concurrency_parse(argv, i)
  local params = {
    limit = sluice_num(argv[i], 'limit'),
    ttl = sluice_num(argv[i + 1], 'lease ttl'),
    nonce = argv[i + 2],
  }
  return params, i + 3
end

local function concurrency_evaluate(keys, p, now, cost)
  local live = '(' .. sluice_fmt(now)
  local in_flight = redis.call('ZCOUNT', keys[1], live, '+inf')
  local take = cost > 0
  local need = take and in_flight + 1 or in_flight
  local d = { allowed = need <= p.limit, limit = p.limit, retry = 0, delay = 0 }
  local expiry = now + p.ttl
  local first = redis.call('ZRANGEBYSCORE', keys[1], live, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local earliest = tonumber(first[2])
  local latest = tonumber(redis.call('ZRANGE', keys[1], -1, -1, 'WITHSCORES')[2])
  if d.allowed and take then
    if p.nonce == nil or p.nonce == '' then
      error('sluice: a concurrency check that takes a lease needs its nonce')
    end
    in_flight = need
    earliest = math.min(earliest or expiry, expiry)
    latest = math.max(latest or expiry, expiry)
  elseif not d.allowed then
    -- the (need - limit)-th lease to expire frees the slot this check needs
    local freeing = redis.call('ZRANGEBYSCORE', keys[1], live, '+inf', 'WITHSCORES', 'LIMIT',
      need - p.limit - 1, 1)
    d.retry = tonumber(freeing[2]) - now
  end
  d.remaining = p.limit - in_flight
  d.reset_at = earliest or now
  return d, { now = now, expiry = expiry, nonce = p.nonce, ttl = (latest or now) - now }
end

-- Prunes the expired leases and adds this one; the key lives until its latest lease expires.
local function concurrency_commit(keys, state)
  redis.call('ZREMRANGEBYSCORE', keys[1], '-inf', sluice_fmt(state.now))
  redis.call('ZADD', keys[1], sluice_fmt(state.expiry), state.nonce)
  sluice_expire(keys[1], state.ttl)
end

sluice_algorithms['concurrency'] = {
  keys = 1,
  parse = concurrency_parse,
  evaluate = concurrency_evaluate,
  commit = concurrency_commit,
}
