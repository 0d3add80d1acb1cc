--[[
  Composite check: several rules of one policy decided together, all-or-nothing per group, with
  an optional reservation record written in the same commit.
  numberOfKeys varies, so it is given with every call (EVALSHA sha <numkeys> ...).

  KEYS     every rule's keys in rule order (1 per rule; 2 for sliding-window-log: set, hash);
           then, when ARGV[4] is not '', the reservation record (a hash); all share one hash
           tag, so the call stays on one cluster slot
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  dry run: '1' evaluates and writes nothing, '0' commits
  ARGV[3]  deadline: integer microseconds since the epoch (the clock of ARGV[1]), or '' for none;
           a script that starts after it reads and writes nothing, because the caller has
           already answered without it
  ARGV[4]  reservation: the record's time to live in ms, or '' for none
  ARGV[5]  reservation estimate: the cost every rule is charged (integer), '' for none
  ARGV[6]  rule count
  ARGV[7..] per rule: name (its receipt's field, '' when there is no reservation), algorithm
           name, group ('0' live, '1' candidate), cost (integer >= 0), then that algorithm's
           parameters exactly as its single-rule script takes them (from its ARGV[3] on)

  Groups: every rule is evaluated; a group commits only if all its rules pass, so a denial by
  any rule writes nothing for its whole group. Live rules decide the request; candidate rules
  commit independently and never deny it. A rule that passed in a denied group reports its
  figures as a peek (cost 0): what remains without this request.
  Reservation: written only when the live group commits with an estimate > 0 (not a dry run):
  hash { estimate, settled = 0, r:<name> = receipt } for every committed rule that has one -
  '<algorithm> <its parameters> <where the charge went>', read by settle-reservation-n.

  Returns  { live allowed (0|1), candidates allowed (0|1), reservation expiresAt (ms epoch, 0 =
             none written), lease expiresAt (ms epoch of the earliest live lease taken, 0 =
             none), then per rule: allowed (0|1), limit, remaining, resetAt (ms epoch),
             retryAfter (ms, -1 = never), delayMs },
           or { -1 } (expired) when now is past the deadline
]]
--- @include "includes/token-bucket"
--- @include "includes/leaky-bucket"
--- @include "includes/fixed-window"
--- @include "includes/sliding-window-log"
--- @include "includes/sliding-window-counter"
--- @include "includes/gcra"
--- @include "includes/concurrency"

-- the first reply integer of an expired call; a decision's is 0 or 1
local EXPIRED = -1

local now = sluice_now(ARGV[1])
local dry_run = ARGV[2] == '1'
local deadline = ARGV[3] ~= '' and sluice_num(ARGV[3], 'deadline') or nil
local reservation_ttl = ARGV[4] ~= '' and sluice_num(ARGV[4], 'reservation ttl') or nil
local estimate = reservation_ttl and sluice_cost(ARGV[5]) or 0
local passed = { ['0'] = true, ['1'] = true }

local rules = {}
local arg, key = 7, 1
for r = 1, sluice_num(ARGV[6], 'rule count') do
  local algorithm = sluice_algorithms[ARGV[arg + 1]]
  if algorithm == nil then
    error('sluice: unknown algorithm ' .. tostring(ARGV[arg + 1]))
  end
  local group = ARGV[arg + 2]
  if passed[group] == nil then
    error('sluice: group must be 0 or 1, got ' .. tostring(group))
  end
  local rule = {
    name = ARGV[arg],
    algorithm_name = ARGV[arg + 1],
    algorithm = algorithm,
    group = group,
    cost = sluice_cost(ARGV[arg + 3]),
    keys = {},
    -- where its parameters start, as its receipt repeats them
    first = arg + 4,
  }
  rule.params, arg = algorithm.parse(ARGV, arg + 4)
  rule.last = arg - 1
  for j = 1, algorithm.keys do
    rule.keys[j] = KEYS[key]
    key = key + 1
  end
  rules[r] = rule
end
local record = reservation_ttl and KEYS[key] or nil
if record then
  key = key + 1
end
if key - 1 ~= #KEYS or arg - 1 ~= #ARGV then
  error('sluice: KEYS and ARGV do not match the rules described')
end
if deadline ~= nil and now > deadline then
  return { EXPIRED }
end
if record and redis.call('EXISTS', record) == 1 then
  error('sluice: the reservation ' .. record .. ' exists already (nonces must be unique)')
end

for _, rule in ipairs(rules) do
  rule.decision, rule.state = rule.algorithm.evaluate(rule.keys, rule.params, now, rule.cost)
  if not rule.decision.allowed then
    passed[rule.group] = false
  end
end

local reply = { passed['0'] and 1 or 0, passed['1'] and 1 or 0, 0, 0 }
local receipts = {}
local lease_expiry = nil
for _, rule in ipairs(rules) do
  if passed[rule.group] then
    if not dry_run and rule.cost > 0 then
      rule.algorithm.commit(rule.keys, rule.state)
      if rule.algorithm.receipt then
        receipts[#receipts + 1] = 'r:' .. rule.name
        receipts[#receipts + 1] = rule.algorithm_name .. ' '
          .. table.concat(ARGV, ' ', rule.first, rule.last) .. ' ' .. rule.algorithm.receipt(rule.state)
      elseif rule.group == '0' then
        lease_expiry = math.min(lease_expiry or rule.state.expiry, rule.state.expiry)
      end
    end
  elseif rule.decision.allowed then
    rule.decision = rule.algorithm.evaluate(rule.keys, rule.params, now, 0)
  end
  sluice_reply(rule.decision, reply)
end
if record and passed['0'] and not dry_run and estimate > 0 then
  redis.call('HSET', record, 'estimate', sluice_fmt(estimate), 'settled', '0', unpack(receipts))
  redis.call('PEXPIRE', record, sluice_fmt(reservation_ttl))
  reply[3] = sluice_ms(now) + reservation_ttl
end
if lease_expiry then
  reply[4] = sluice_ms(lease_expiry)
end
return reply
