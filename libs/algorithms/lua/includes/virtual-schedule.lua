--- @include "includes/common"

--[[
  Virtual scheduling, shared by the leaky bucket and GCRA. `due` (integer us) is when the queue
  drains empty (leaky bucket) or the theoretical arrival time (GCRA). Each unit of cost occupies
  `interval` us of the schedule and at most capacity * interval us may be booked ahead of now.
  All figures are integers, so admission at the edge is exact.
  Settle: an overrun pushes `due` ahead (beyond the room = debt), a refund pulls it back, never
  before now.
]]

local function sluice_schedule(due, now, capacity, interval, cost)
  local start = math.max(due, now)
  local backlog = start - now
  local room = capacity * interval
  local need = cost * interval
  local s = { allowed = false, backlog = backlog, retry = 0, due = start }
  if cost > capacity then
    s.retry = SLUICE_NEVER
  elseif backlog + need <= room then
    s.allowed = true
    s.due = start + need
  else
    s.retry = backlog + need - room
  end
  -- negative while the schedule is booked beyond its room (debt)
  s.remaining = math.floor((room - (s.due - now)) / interval)
  return s
end

local function sluice_schedule_read(key, now)
  local stored = redis.call('GET', key)
  return stored and tonumber(stored) or now
end

-- A schedule free by now equals no schedule (and SET PX refuses a zero TTL).
local function sluice_schedule_commit(keys, state)
  if state.due > state.now then
    redis.call('SET', keys[1], sluice_fmt(state.due), 'PX', sluice_fmt(sluice_ms(state.due - state.now)))
  else
    redis.call('DEL', keys[1])
  end
end

local function sluice_schedule_receipt()
  return ''
end

-- An overrun books delta more units (debt: beyond the room), a refund frees them again, but the
-- schedule is never free before now. Both modules' params carry `interval`.
local function sluice_schedule_settle(keys, p, now, _ref, delta)
  local start = math.max(sluice_schedule_read(keys[1], now), now)
  local due, charged = start + delta * p.interval, delta
  if delta > 0 then
    due = math.min(due, now + SLUICE_MAX_DEBT)
  elseif due < now then
    due = now
    charged = -math.floor((start - now) / p.interval)
  end
  if due == start then
    return 0, nil
  end
  return charged, { due = due, now = now }
end
