--- @include "includes/common"

--[[
  Token bucket. State: hash { tokens, ts } - the level (17 significant digits, may be negative
  when in debt) at time ts (us). Lazy refill: tokens = min(capacity, tokens + elapsed * rate).
  Params: capacity (integer), rate (tokens per second, may be fractional).
  Settle: an overrun takes tokens below 0 (debt), a refund puts them back up to the capacity.
]]

local function token_bucket_parse(argv, i)
  local params = {
    capacity = sluice_num(argv[i], 'capacity'),
    rate = sluice_num(argv[i + 1], 'rate'),
  }
  return params, i + 2
end

-- The level at `at` from the stored level `tokens` taken at `ts` (refilled up to the capacity).
local function token_bucket_level_at(p, tokens, ts, at)
  return math.min(p.capacity, tokens + (at - ts) * p.rate / 1000000)
end

-- The level now (refilled), the time it is taken at, and the stored level and its time.
local function token_bucket_level(keys, p, now)
  local stored = redis.call('HMGET', keys[1], 'tokens', 'ts')
  local tokens, ts = p.capacity, now
  if stored[1] then
    tokens, ts = tonumber(stored[1]), tonumber(stored[2])
  end
  -- a clock behind the stored one (replay, failover) refills nothing
  local at = math.max(now, ts)
  return token_bucket_level_at(p, tokens, ts, at), at, tokens, ts
end

-- The first whole us after `at` at which the level reaches `cost`: the closed form can land a us
-- off either way through float error, so it is moved to where the level formula itself admits.
local function token_bucket_wait(p, stored, ts, at, tokens, cost)
  local function admits(us)
    return token_bucket_level_at(p, stored, ts, at + us) >= cost
  end
  local wait = math.ceil((cost - tokens) / p.rate * 1000000)
  while wait > 1 and admits(wait - 1) do
    wait = wait - 1
  end
  while not admits(wait) do
    wait = wait + 1
  end
  return wait
end

local function token_bucket_evaluate(keys, p, now, cost)
  local tokens, at, stored, ts = token_bucket_level(keys, p, now)
  local d = { allowed = false, limit = p.capacity, retry = 0, delay = 0 }
  local level = tokens
  if cost > p.capacity then
    d.retry = SLUICE_NEVER
  elseif tokens >= cost then
    d.allowed = true
    level = tokens - cost
  else
    d.retry = (at - now) + token_bucket_wait(p, stored, ts, at, tokens, cost)
  end
  local full_in = (p.capacity - level) / p.rate * 1000000
  d.remaining = math.floor(level)
  d.reset_at = at + full_in
  return d, { tokens = level, ts = at, ttl = (at - now) + full_in }
end

local function token_bucket_commit(keys, state)
  redis.call('HSET', keys[1], 'tokens', sluice_fmt(state.tokens), 'ts', sluice_fmt(state.ts))
  sluice_expire(keys[1], state.ttl)
end

local function token_bucket_receipt()
  return ''
end

local function token_bucket_settle(keys, p, now, _ref, delta)
  local tokens, at = token_bucket_level(keys, p, now)
  local level, charged = tokens - delta, delta
  if delta > 0 then
    level = math.max(level, p.capacity - SLUICE_MAX_DEBT * p.rate / 1000000)
  elseif level > p.capacity then
    -- never above the capacity: the part of the refund that does not fit is lost
    level = p.capacity
    charged = -math.floor(p.capacity - tokens)
  end
  if level == tokens then
    return 0, nil
  end
  local ttl = (at - now) + (p.capacity - level) / p.rate * 1000000
  return charged, { tokens = level, ts = at, ttl = ttl }
end

sluice_algorithms['token_bucket'] = {
  keys = 1,
  parse = token_bucket_parse,
  evaluate = token_bucket_evaluate,
  commit = token_bucket_commit,
  receipt = token_bucket_receipt,
  settle = token_bucket_settle,
}
