--- @include "includes/common"

--[[
  Sliding window log. State: KEYS[1] sorted set, one member '<seq>:<cost>' per admitted request
  scored by its time (us); KEYS[2] hash { sum, seq } - the cost of the members still in the set
  and the last sequence number (keeps members unique within one microsecond). A member counts
  while now - window < score. Params: limit, window (us).
  Settle (receipt: the member's score and name): while the member is in the window its cost
  becomes the actual cost; once it has left, an overrun is a new member now with the delta and a
  refund has nothing left to lower.
]]

local SLIDING_LOG_PAGE = 100

local function sliding_log_cost(member)
  return tonumber(string.match(member, ':(%d+)$'))
end

local function sliding_log_parse(argv, i)
  local params = {
    limit = sluice_num(argv[i], 'limit'),
    window = sluice_num(argv[i + 1], 'window'),
  }
  return params, i + 2
end

-- The cost of the members still in the window, and the last sequence number.
local function sliding_log_sum(keys, cutoff)
  local stored = redis.call('HMGET', keys[2], 'sum', 'seq')
  local sum = tonumber(stored[1]) or 0
  local expired = redis.call('ZRANGEBYSCORE', keys[1], '-inf', sluice_fmt(cutoff))
  for _, member in ipairs(expired) do
    sum = sum - sliding_log_cost(member)
  end
  return sum, tonumber(stored[2]) or 0
end

-- Score of the oldest live member by which `excess` cost has left the window, oldest first.
local function sliding_log_release_score(key, cutoff, excess)
  local released, offset = 0, 0
  while true do
    local page = redis.call('ZRANGEBYSCORE', key, '(' .. sluice_fmt(cutoff), '+inf',
      'WITHSCORES', 'LIMIT', offset, SLIDING_LOG_PAGE)
    if #page == 0 then
      return nil
    end
    for j = 1, #page, 2 do
      released = released + sliding_log_cost(page[j])
      if released >= excess then
        return tonumber(page[j + 1])
      end
    end
    offset = offset + SLIDING_LOG_PAGE
  end
end

local function sliding_log_evaluate(keys, p, now, cost)
  local cutoff = now - p.window
  local sum, seq = sliding_log_sum(keys, cutoff)
  local d = { allowed = false, limit = p.limit, retry = 0, delay = 0 }
  local newest = tonumber(redis.call('ZRANGE', keys[1], -1, -1, 'WITHSCORES')[2])
  if cost > p.limit then
    d.retry = SLUICE_NEVER
  elseif sum + cost <= p.limit then
    d.allowed = true
    if cost > 0 then
      sum = sum + cost
      newest = math.max(newest or now, now)
    end
  else
    local score = sliding_log_release_score(keys[1], cutoff, sum + cost - p.limit)
    -- a sum its members cannot explain (cost added to the sum alone) gets one window, the longest
    -- wait the log itself knows
    d.retry = (score or now) + p.window - now
  end
  d.remaining = p.limit - sum
  d.reset_at = (newest and newest > cutoff) and newest + p.window or now
  return d, {
    cutoff = cutoff,
    score = now,
    member = sluice_fmt(seq + 1) .. ':' .. sluice_fmt(cost),
    sum = sum,
    seq = seq + 1,
    ttl = d.reset_at - now,
  }
end

-- Prunes the expired members, replaces `remove` (settle) and adds `member` at `score`.
local function sliding_log_commit(keys, state)
  redis.call('ZREMRANGEBYSCORE', keys[1], '-inf', sluice_fmt(state.cutoff))
  if state.remove then
    redis.call('ZREM', keys[1], state.remove)
  end
  if state.member then
    redis.call('ZADD', keys[1], sluice_fmt(state.score), state.member)
  end
  redis.call('HSET', keys[2], 'sum', sluice_fmt(state.sum), 'seq', sluice_fmt(state.seq))
  sluice_expire(keys[1], state.ttl)
  sluice_expire(keys[2], state.ttl)
end

local function sliding_log_receipt(state)
  return sluice_fmt(state.score) .. ' ' .. state.member
end

local function sliding_log_settle(keys, p, now, ref, delta)
  local cutoff = now - p.window
  local score, member = tonumber(ref[1]), ref[2]
  -- the same member (seq and cost) at the same time: a later request cannot look like it
  local live = score > cutoff and tonumber(redis.call('ZSCORE', keys[1], member)) == score
  if delta < 0 and not live then
    return 0, nil
  end
  local sum, seq = sliding_log_sum(keys, cutoff)
  local state = { cutoff = cutoff, sum = sum + delta, seq = seq }
  if live then
    local cost = sliding_log_cost(member) + delta
    state.remove = member
    if cost > 0 then
      state.score = score
      state.member = string.match(member, '^(%d+):') .. ':' .. sluice_fmt(cost)
    end
  else
    state.seq = seq + 1
    state.score = now
    state.member = sluice_fmt(seq + 1) .. ':' .. sluice_fmt(delta)
  end
  -- the newest live member once this change is made: resetAt and the TTL follow it
  local newest = state.member and state.score or nil
  local top = redis.call('ZRANGE', keys[1], -2, -1, 'WITHSCORES')
  for j = #top - 1, 1, -2 do
    local at = tonumber(top[j + 1])
    if top[j] ~= state.remove and at > cutoff then
      newest = math.max(newest or at, at)
      break
    end
  end
  state.ttl = newest and newest + p.window - now or 0
  return delta, state
end

sluice_algorithms['sliding_window_log'] = {
  keys = 2,
  parse = sliding_log_parse,
  evaluate = sliding_log_evaluate,
  commit = sliding_log_commit,
  receipt = sliding_log_receipt,
  settle = sliding_log_settle,
}
