--- @include "includes/virtual-schedule"

--[[
  GCRA (generic cell rate algorithm, as in redis-cell). State: one string, the theoretical
  arrival time (TAT, us). Params: burst (how many units may pass at once), interval (us per unit
  of cost: period / limit rounded up by the caller). A request passes when
  max(TAT, now) + cost * interval - burst * interval <= now.
]]

local function gcra_parse(argv, i)
  local params = {
    burst = sluice_num(argv[i], 'burst'),
    interval = sluice_num(argv[i + 1], 'interval'),
  }
  return params, i + 2
end

local function gcra_evaluate(keys, p, now, cost)
  local s = sluice_schedule(sluice_schedule_read(keys[1], now), now, p.burst, p.interval, cost)
  local d = {
    allowed = s.allowed,
    limit = p.burst,
    remaining = s.remaining,
    reset_at = s.due,
    retry = s.retry,
    delay = 0,
  }
  return d, { due = s.due, now = now }
end

sluice_algorithms['gcra'] = {
  keys = 1,
  parse = gcra_parse,
  evaluate = gcra_evaluate,
  commit = sluice_schedule_commit,
  receipt = sluice_schedule_receipt,
  settle = sluice_schedule_settle,
}
