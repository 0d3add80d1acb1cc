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

-- members the release walk read in this call: a reading for tests (test/sliding-log-walk.spec.ts)
local sliding_log_visited = 0

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

-- Members ranked first .. last (oldest first), counted as visited; no scores, which cost as much
-- again to convert, while only the answer's is needed.
local function sliding_log_page(key, first, last)
  local page = redis.call('ZRANGE', key, first, last)
  sliding_log_visited = sliding_log_visited + #page
  return page
end

--[[
  Score of the first live member (oldest first) by which `excess` cost has left the window, or
  nil when the members cannot explain the sum. It is also the oldest member after which the newer
  ones cost at most `keep` (= sum - excess = limit - cost), so the walk starts from the end with
  fewer members to pass (member costs are >= 1): from the oldest until `excess` is released (at
  most `excess` members), or from the newest until more than `keep` is kept (at most keep + 1:
  only the newest when the whole sum must leave). Pages go by rank from the first live member
  (ZCOUNT -inf cutoff): O(log N + page) each, members sharing a microsecond no trouble, and none
  longer than the members the walk can still need.
]]
local function sliding_log_release_score(key, cutoff, excess, keep)
  local first = redis.call('ZCOUNT', key, '-inf', sluice_fmt(cutoff))
  local last = redis.call('ZCARD', key) - 1
  local found = nil
  if excess <= keep + 1 then
    local released = 0
    while found == nil and first <= last do
      local stop = math.min(last, first + math.min(SLIDING_LOG_PAGE, excess - released) - 1)
      for _, member in ipairs(sliding_log_page(key, first, stop)) do
        released = released + sliding_log_cost(member)
        if released >= excess then
          found = member
          break
        end
      end
      first = stop + 1
    end
  else
    local kept = 0
    while found == nil and first <= last do
      local start = math.max(first, last - math.min(SLIDING_LOG_PAGE, keep + 1 - kept) + 1)
      local page = sliding_log_page(key, start, last)
      for j = #page, 1, -1 do
        kept = kept + sliding_log_cost(page[j])
        if kept > keep then
          found = page[j]
          break
        end
      end
      last = start - 1
    end
  end
  return found and tonumber(redis.call('ZSCORE', key, found))
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
    local score = sliding_log_release_score(keys[1], cutoff, sum + cost - p.limit, p.limit - cost)
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
