--[[
  Shared helpers for every Sluice script: clock, argument parsing, rounding and replies.

  Time inside the scripts is integer microseconds (us) since the epoch. Replies carry whole
  milliseconds rounded up (resetAt, retryAfter, delayMs), so a client that waits that long is
  never early. Every algorithm module registers itself in sluice_algorithms under its name as
  { keys = <number of KEYS>, parse = fn, evaluate = fn, commit = fn, receipt = fn, settle = fn }:
    parse(argv, i)                      -> params, index after its last argument
    evaluate(keys, params, now, cost)   -> decision, state   (reads only)
    commit(keys, state)                 -> nothing            (writes only)
    receipt(state)                      -> string: where a committed charge went, for settle
                                           ('' when the state itself says it); none = no receipt
    settle(keys, params, now, ref, delta) -> charged (whole units), state to commit or nil
                                           (reads only); ref = the receipt's words, delta =
                                           actual - estimate (> 0 overrun, < 0 refund, never 0)
  A decision is { allowed, limit, remaining, reset_at (us), retry (us or SLUICE_NEVER), delay (us) }.
]]

-- retryAfter when the cost can never pass (it exceeds the rule's capacity)
local SLUICE_NEVER = -1

-- Longest recovery a settled overrun can book (10 years in us): deeper debt is capped there, so
-- stored times stay exact integers and every TTL stays a valid PEXPIRE argument.
local SLUICE_MAX_DEBT = 315360000000000

local sluice_algorithms = {}

local function sluice_num(value, name)
  local n = tonumber(value)
  if n == nil then
    error('sluice: ' .. name .. ' must be a number, got ' .. tostring(value))
  end
  return n
end

local function sluice_cost(value)
  local n = sluice_num(value, 'cost')
  if n < 0 or n ~= math.floor(n) then
    error('sluice: cost must be an integer >= 0, got ' .. tostring(value))
  end
  return n
end

-- An injected now (integer us) is for replays and tests; otherwise the Redis clock decides.
local function sluice_now(value)
  if value ~= nil and value ~= '' then
    return sluice_num(value, 'now')
  end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- tostring keeps only 14 significant digits; 17 round-trip every double exactly.
local function sluice_fmt(x)
  return string.format('%.17g', x)
end

-- The space-separated words of a stored receipt.
local function sluice_words(text)
  local words = {}
  for word in string.gmatch(text, '%S+') do
    words[#words + 1] = word
  end
  return words
end

local function sluice_ms(us)
  return math.ceil(us / 1000)
end

local function sluice_expire(key, ttl_us)
  redis.call('PEXPIRE', key, sluice_fmt(sluice_ms(ttl_us)))
end

-- Appends one rule's figures to out as integers (Lua numbers would be truncated anyway).
local function sluice_reply(d, out)
  out[#out + 1] = d.allowed and 1 or 0
  out[#out + 1] = d.limit
  out[#out + 1] = d.remaining
  out[#out + 1] = sluice_ms(d.reset_at)
  out[#out + 1] = d.retry == SLUICE_NEVER and SLUICE_NEVER or sluice_ms(d.retry)
  out[#out + 1] = sluice_ms(d.delay)
  return out
end

-- Body of every single-rule script: ARGV[1] now, ARGV[2] cost, ARGV[3..] the algorithm's params.
local function sluice_run_single(algorithm)
  local now = sluice_now(ARGV[1])
  local cost = sluice_cost(ARGV[2])
  local params = algorithm.parse(ARGV, 3)
  local decision, state = algorithm.evaluate(KEYS, params, now, cost)
  if decision.allowed and cost > 0 then
    algorithm.commit(KEYS, state)
  end
  return sluice_reply(decision, {})
end
