--[[
  Composite check: several rules of one policy decided together, all-or-nothing per group.
  numberOfKeys varies, so it is given with every call (EVALSHA sha <numkeys> ...).

  KEYS     every rule's keys in rule order (1 per rule; 2 for sliding-window-log: set, hash);
           all share one hash tag, so the call stays on one cluster slot
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  dry run: '1' evaluates and writes nothing, '0' commits
  ARGV[3]  deadline: integer microseconds since the epoch (the clock of ARGV[1]), or '' for none;
           a script that starts after it reads and writes nothing, because the caller has
           already answered without it
  ARGV[4]  rule count
  ARGV[5..] per rule: algorithm name, group ('0' live, '1' candidate), cost (integer >= 0),
           then that algorithm's parameters exactly as its single-rule script takes them
           (from that script's ARGV[3] on)

  Groups: every rule is evaluated; a group commits only if all its rules pass, so a denial by
  any rule writes nothing for its whole group. Live rules decide the request; candidate rules
  commit independently and never deny it. A rule that passed in a denied group reports its
  figures as a peek (cost 0): what remains without this request.

  Returns  { live allowed (0|1), candidates allowed (0|1), then per rule: allowed (0|1), limit,
             remaining, resetAt (ms epoch), retryAfter (ms, -1 = never), delayMs },
           or { -1 } (expired) when now is past the deadline
]]
--- @include "includes/token-bucket"
--- @include "includes/leaky-bucket"
--- @include "includes/fixed-window"
--- @include "includes/sliding-window-log"
--- @include "includes/sliding-window-counter"
--- @include "includes/gcra"

-- the first reply integer of an expired call; a decision's is 0 or 1
local EXPIRED = -1

local now = sluice_now(ARGV[1])
local dry_run = ARGV[2] == '1'
local deadline = ARGV[3] ~= '' and sluice_num(ARGV[3], 'deadline') or nil
local passed = { ['0'] = true, ['1'] = true }

local rules = {}
local arg, key = 5, 1
for r = 1, sluice_num(ARGV[4], 'rule count') do
  local algorithm = sluice_algorithms[ARGV[arg]]
  if algorithm == nil then
    error('sluice: unknown algorithm ' .. tostring(ARGV[arg]))
  end
  local group = ARGV[arg + 1]
  if passed[group] == nil then
    error('sluice: group must be 0 or 1, got ' .. tostring(group))
  end
  local rule = { algorithm = algorithm, group = group, cost = sluice_cost(ARGV[arg + 2]), keys = {} }
  rule.params, arg = algorithm.parse(ARGV, arg + 3)
  for j = 1, algorithm.keys do
    rule.keys[j] = KEYS[key]
    key = key + 1
  end
  rules[r] = rule
end
if key - 1 ~= #KEYS or arg - 1 ~= #ARGV then
  error('sluice: KEYS and ARGV do not match the rules described')
end
if deadline ~= nil and now > deadline then
  return { EXPIRED }
end

for _, rule in ipairs(rules) do
  rule.decision, rule.state = rule.algorithm.evaluate(rule.keys, rule.params, now, rule.cost)
  if not rule.decision.allowed then
    passed[rule.group] = false
  end
end

local reply = { passed['0'] and 1 or 0, passed['1'] and 1 or 0 }
for _, rule in ipairs(rules) do
  if passed[rule.group] then
    if not dry_run and rule.cost > 0 then
      rule.algorithm.commit(rule.keys, rule.state)
    end
  elseif rule.decision.allowed then
    rule.decision = rule.algorithm.evaluate(rule.keys, rule.params, now, 0)
  end
  sluice_reply(rule.decision, reply)
end
return reply
