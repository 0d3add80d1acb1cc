--- @include "includes/common"

--[[
  Token bucket. State: hash { tokens, ts } - the level (17 significant digits, may be negative
  when in debt) at time ts (us). Lazy refill: tokens = min(capacity, tokens + elapsed * rate).
  Params: capacity (integer), rate (tokens per second, may be fractional).
]]

local function token_bucket_parse(argv, i)
  local params = {
    capacity = sluice_num(argv[i], 'capacity'),
    rate = sluice_num(argv[i + 1], 'rate'),
  }
  return params, i + 2
end

local function token_bucket_evaluate(keys, p, now, cost)
  local stored = redis.call('HMGET', keys[1], 'tokens', 'ts')
  local tokens, ts = p.capacity, now
  if stored[1] then
    tokens, ts = tonumber(stored[1]), tonumber(stored[2])
  end
  -- a clock behind the stored one (replay, failover) refills nothing
  local at = math.max(now, ts)
  tokens = math.min(p.capacity, tokens + (at - ts) * p.rate / 1000000)
  local d = { allowed = false, limit = p.capacity, retry = 0, delay = 0 }
  local level = tokens
  if cost > p.capacity then
    d.retry = SLUICE_NEVER
  elseif tokens >= cost then
    d.allowed = true
    level = tokens - cost
  else
    d.retry = (at - now) + (cost - tokens) / p.rate * 1000000
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

sluice_algorithms['token_bucket'] = {
  keys = 1,
  parse = token_bucket_parse,
  evaluate = token_bucket_evaluate,
  commit = token_bucket_commit,
}
