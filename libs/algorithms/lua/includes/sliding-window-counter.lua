--- @include "includes/common"

--[[
  Sliding window counter. State: hash { start, prev, curr } - the current epoch-aligned window's
  start (us) and the cost admitted in the previous and current windows. The previous window
  counts in proportion to how much of it still overlaps the sliding window:
    estimate = prev * (window - elapsed) / window + curr,  elapsed = now - start.
  Params: limit, window (us).
  Settle (receipt: the charged window's start): an overrun counts in the current window, a
  refund only in the charged window while it is still the current one.
]]

local function sliding_counter_parse(argv, i)
  local params = {
    limit = sluice_num(argv[i], 'limit'),
    window = sluice_num(argv[i + 1], 'window'),
  }
  return params, i + 2
end

-- The current window's start and the counts of the previous and current windows.
local function sliding_counter_read(keys, w, now)
  local start = now - math.fmod(now, w)
  local stored = redis.call('HMGET', keys[1], 'start', 'prev', 'curr')
  local stored_start = tonumber(stored[1])
  if stored_start == start then
    return start, tonumber(stored[2]), tonumber(stored[3])
  elseif stored_start == start - w then
    return start, tonumber(stored[3]), 0
  end
  return start, 0, 0
end

-- When the estimate is back to 0: curr decays over the next window, prev over this one.
local function sliding_counter_reset(start, w, prev, curr, now)
  if curr > 0 then
    return start + 2 * w
  elseif prev > 0 then
    return start + w
  end
  return now
end

local function sliding_counter_evaluate(keys, p, now, cost)
  local w = p.window
  local start, prev, curr = sliding_counter_read(keys, w, now)
  local elapsed = now - start
  local estimate = prev * (w - elapsed) / w + curr
  local d = { allowed = false, limit = p.limit, retry = 0, delay = 0 }
  if cost > p.limit then
    d.retry = SLUICE_NEVER
  elseif estimate + cost <= p.limit then
    d.allowed = true
    curr = curr + cost
    estimate = estimate + cost
  elseif curr + cost <= p.limit then
    -- the previous window's share decays enough within this window
    d.retry = w - elapsed - (p.limit - cost - curr) * w / prev
  else
    -- only the next window, where this window's count decays in turn, has room
    d.retry = 2 * w - elapsed - (p.limit - cost) * w / curr
  end
  d.remaining = math.floor(p.limit - estimate)
  d.reset_at = sliding_counter_reset(start, w, prev, curr, now)
  return d, { start = start, prev = prev, curr = curr, ttl = d.reset_at - now }
end

local function sliding_counter_commit(keys, state)
  redis.call('HSET', keys[1], 'start', sluice_fmt(state.start), 'prev', sluice_fmt(state.prev),
    'curr', sluice_fmt(state.curr))
  sluice_expire(keys[1], state.ttl)
end

local function sliding_counter_receipt(state)
  return sluice_fmt(state.start)
end

local function sliding_counter_settle(keys, p, now, ref, delta)
  local start, prev, curr = sliding_counter_read(keys, p.window, now)
  local change = delta
  if delta < 0 then
    if tonumber(ref[1]) ~= start then
      return 0, nil
    end
    change = -math.min(-delta, curr)
    if change == 0 then
      return 0, nil
    end
  end
  curr = curr + change
  local ttl = sliding_counter_reset(start, p.window, prev, curr, now) - now
  return change, { start = start, prev = prev, curr = curr, ttl = ttl }
end

sluice_algorithms['sliding_window_counter'] = {
  keys = 1,
  parse = sliding_counter_parse,
  evaluate = sliding_counter_evaluate,
  commit = sliding_counter_commit,
  receipt = sliding_counter_receipt,
  settle = sliding_counter_settle,
}
