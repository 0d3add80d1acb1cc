--- @include "includes/common"

--[[
  Virtual scheduling, shared by the leaky bucket and GCRA. `due` (integer us) is when the queue
  drains empty (leaky bucket) or the theoretical arrival time (GCRA). Each unit of cost occupies
  `interval` us of the schedule and at most capacity * interval us may be booked ahead of now.
  All figures are integers, so admission at the edge is exact.
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

local function sluice_schedule_commit(keys, state)
  redis.call('SET', keys[1], sluice_fmt(state.due), 'PX', sluice_fmt(sluice_ms(state.due - state.now)))
end
