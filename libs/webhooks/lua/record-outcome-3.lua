--[[
  Records the outcome of one delivery attempt, atomically: the endpoint's counters, its run of
  consecutive failures and the pause that run or the receiver's Retry-After earns, and where the
  event is now (still pending, done, or in the dead letters). A pause only ever grows, whatever
  order concurrent attempts finish in.

  KEYS[1]  hash: the endpoint's state { delivered, failed, dead, failures, pausedUntil (ms) }
  KEYS[2]  zset: pending event ids, scored by admission time (ms)
  KEYS[3]  zset: dead letters, event ids scored by when they died (ms)
  ARGV[1]  outcome: 'delivered', 'retry' (failed, tried again later) or 'dead' (failed for good)
  ARGV[2]  the event id
  ARGV[3]  pause the receiver asked for (Retry-After), ms from now; 0 for none
  ARGV[4]  consecutive failures from which the endpoint pauses (integer >= 1)
  ARGV[5]  the pause at that many failures (ms); it doubles with every further failure
  ARGV[6]  longest pause (ms), for both kinds
  ARGV[7]  dead letters older than this (ms) are dropped from the index

  Returns  { pausedUntil (ms epoch on the Redis clock; 0 when never paused), consecutive failures }
]]
local state, pending, dead = KEYS[1], KEYS[2], KEYS[3]
local outcome, event = ARGV[1], ARGV[2]
local retry_after = tonumber(ARGV[3])
local threshold, pause_base, pause_max = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local retention = tonumber(ARGV[7])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)

local failures
if outcome == 'delivered' then
  redis.call('HINCRBY', state, 'delivered', 1)
  redis.call('HSET', state, 'failures', 0)
  redis.call('ZREM', pending, event)
  failures = 0
elseif outcome == 'retry' or outcome == 'dead' then
  redis.call('HINCRBY', state, 'failed', 1)
  failures = redis.call('HINCRBY', state, 'failures', 1)
  if outcome == 'dead' then
    redis.call('HINCRBY', state, 'dead', 1)
    redis.call('ZREM', pending, event)
    redis.call('ZADD', dead, now, event)
    redis.call('ZREMRANGEBYSCORE', dead, '-inf', now - retention)
  end
else
  error('sluice: unknown outcome ' .. tostring(outcome))
end

local until_ms = 0
if retry_after > 0 then
  until_ms = now + math.min(retry_after, pause_max)
end
if failures >= threshold then
  -- 2^40 ms is decades: the exponent stops there, the cap applies long before
  local pause = math.min(pause_max, pause_base * 2 ^ math.min(failures - threshold, 40))
  until_ms = math.max(until_ms, now + pause)
end
local stored = tonumber(redis.call('HGET', state, 'pausedUntil')) or 0
if until_ms > stored then
  redis.call('HSET', state, 'pausedUntil', string.format('%d', until_ms))
  stored = until_ms
end
return { stored, failures }
