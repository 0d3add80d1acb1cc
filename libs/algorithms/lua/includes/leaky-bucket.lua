--- @include "includes/virtual-schedule"

--[[
  Leaky bucket as a queue with a constant leak, by virtual scheduling. State: one string, the
  time (us) the queue drains empty. Params: capacity (queue size in cost units), interval (us per
  unit of cost, 1/rate rounded up by the caller). delay = how long the request waits in the queue
  before it leaves at the constant rate.
]]

local function leaky_bucket_parse(argv, i)
  local params = {
    capacity = sluice_num(argv[i], 'capacity'),
    interval = sluice_num(argv[i + 1], 'interval'),
  }
  return params, i + 2
end

local function leaky_bucket_evaluate(keys, p, now, cost)
  local s = sluice_schedule(sluice_schedule_read(keys[1], now), now, p.capacity, p.interval, cost)
  local d = {
    allowed = s.allowed,
    limit = p.capacity,
    remaining = s.remaining,
    reset_at = s.due,
    retry = s.retry,
    delay = s.allowed and s.backlog or 0,
  }
  return d, { due = s.due, now = now }
end

sluice_algorithms['leaky_bucket'] = {
  keys = 1,
  parse = leaky_bucket_parse,
  evaluate = leaky_bucket_evaluate,
  commit = sluice_schedule_commit,
  receipt = sluice_schedule_receipt,
  settle = sluice_schedule_settle,
}
