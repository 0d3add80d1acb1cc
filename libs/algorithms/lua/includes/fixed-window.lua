--- @include "includes/common"

--[[
  Fixed window. State: hash { start, count } - the current window's start (us) and the cost
  admitted in it (may exceed the limit when in debt). Params: limit, window (us; windows are
  aligned to the epoch) or window 0 followed by n calendar boundaries b1 < ... < bn (us) computed
  by the caller in the rule's time zone; the window is the [b_j, b_j+1) holding the script's now,
  so n = 4 (previous, current, next, after next) tolerates one window of client clock skew.
  Settle (receipt: the charged window's start): an overrun counts in the current window (over the
  limit = debt until it ends), a refund only in the charged window while it is still current.
]]

local function fixed_window_parse(argv, i)
  local params = {
    limit = sluice_num(argv[i], 'limit'),
    window = sluice_num(argv[i + 1], 'window'),
    boundaries = {},
  }
  local n = sluice_num(argv[i + 2], 'boundary count')
  for j = 1, n do
    params.boundaries[j] = sluice_num(argv[i + 2 + j], 'boundary')
  end
  return params, i + 3 + n
end

local function fixed_window_bounds(p, now)
  if p.window > 0 then
    local start = now - math.fmod(now, p.window)
    return start, start + p.window
  end
  local b = p.boundaries
  for j = 1, #b - 1 do
    if b[j] <= now and now < b[j + 1] then
      return b[j], b[j + 1]
    end
  end
  error('sluice: now ' .. sluice_fmt(now) .. ' is outside the calendar boundaries given (client clock skew)')
end

local function fixed_window_evaluate(keys, p, now, cost)
  local start, finish = fixed_window_bounds(p, now)
  local stored = redis.call('HMGET', keys[1], 'start', 'count')
  local fresh = tonumber(stored[1]) ~= start
  local count = fresh and 0 or tonumber(stored[2])
  local d = { allowed = false, limit = p.limit, retry = 0, delay = 0, reset_at = finish }
  if cost > p.limit then
    d.retry = SLUICE_NEVER
  elseif count + cost <= p.limit then
    d.allowed = true
    count = count + cost
  else
    -- the next window starts empty
    d.retry = finish - now
  end
  d.remaining = p.limit - count
  return d, { fresh = fresh, start = start, cost = cost, ttl = finish - now }
end

local function fixed_window_commit(keys, state)
  if state.fresh then
    redis.call('HSET', keys[1], 'start', sluice_fmt(state.start), 'count', sluice_fmt(state.cost))
  else
    redis.call('HINCRBY', keys[1], 'count', sluice_fmt(state.cost))
  end
  sluice_expire(keys[1], state.ttl)
end

local function fixed_window_receipt(state)
  return sluice_fmt(state.start)
end

local function fixed_window_settle(keys, p, now, ref, delta)
  local start, finish = fixed_window_bounds(p, now)
  local stored = redis.call('HMGET', keys[1], 'start', 'count')
  local fresh = tonumber(stored[1]) ~= start
  local change = delta
  if delta < 0 then
    if fresh or tonumber(ref[1]) ~= start then
      return 0, nil
    end
    change = -math.min(-delta, tonumber(stored[2]))
    if change == 0 then
      return 0, nil
    end
  end
  return change, { fresh = fresh, start = start, cost = change, ttl = finish - now }
end

sluice_algorithms['fixed_window'] = {
  keys = 1,
  parse = fixed_window_parse,
  evaluate = fixed_window_evaluate,
  commit = fixed_window_commit,
  receipt = fixed_window_receipt,
  settle = fixed_window_settle,
}
