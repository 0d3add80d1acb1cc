--[[
  Settles a reservation once: applies actual - estimate to every rule it charged, in one atomic
  call. numberOfKeys varies, so it is given with every call.

  KEYS[1]  the reservation record (hash { estimate, settled, actual, r:<name> = receipt }),
           written by check-rules-n
  KEYS[2..] the keys of the policy's rules in rule order (1 each; 2 for sliding-window-log), as
           the check derives them; all share the record's hash tag
  ARGV[1]  now: integer microseconds since the epoch, or '' to use the Redis clock (TIME)
  ARGV[2]  actual cost (integer >= 0)
  ARGV[3]  rule count
  ARGV[4..] per rule: name, algorithm name

  A rule is adjusted only when the record holds its receipt for the same algorithm (rules added
  since the check, or changed to another algorithm, are skipped), with the parameters it was
  charged under (the receipt's), so an override or a policy change meanwhile cannot misplace the
  adjustment. Every adjustment is computed before any is written. A second settle changes
  nothing and answers with the first one's actual cost.

  Returns  { 0 } when the record does not exist (unknown or expired), else { status (1 settled
           now, 2 settled before), estimate, actual cost, then per rule: applied (0|1), charged
           (whole units: the delta, or the part of a refund that fit; 0 when it had nowhere to
           go), then the figures of a peek after the settle: allowed (0|1), limit, remaining,
           resetAt (ms epoch), retryAfter (ms), delayMs }
]]
--- @include "includes/token-bucket"
--- @include "includes/leaky-bucket"
--- @include "includes/fixed-window"
--- @include "includes/sliding-window-log"
--- @include "includes/sliding-window-counter"
--- @include "includes/gcra"

local NOT_FOUND, SETTLED, SETTLED_BEFORE = 0, 1, 2

local now = sluice_now(ARGV[1])
local actual = sluice_cost(ARGV[2])
local record = KEYS[1]

local rules, fields = {}, { 'estimate', 'settled', 'actual' }
local arg, key = 4, 2
for r = 1, sluice_num(ARGV[3], 'rule count') do
  local name, algorithm = ARGV[arg], sluice_algorithms[ARGV[arg + 1]]
  if algorithm == nil or algorithm.settle == nil then
    error('sluice: no settle for algorithm ' .. tostring(ARGV[arg + 1]))
  end
  local rule = { name = name, algorithm_name = ARGV[arg + 1], algorithm = algorithm, keys = {} }
  for j = 1, algorithm.keys do
    rule.keys[j] = KEYS[key]
    key = key + 1
  end
  rules[r] = rule
  fields[#fields + 1] = 'r:' .. name
  arg = arg + 2
end
if key - 1 ~= #KEYS or arg - 1 ~= #ARGV then
  error('sluice: KEYS and ARGV do not match the rules described')
end

local stored = redis.call('HMGET', record, unpack(fields))
if not stored[1] then
  return { NOT_FOUND }
end
local estimate = tonumber(stored[1])
local before = stored[2] == '1'
if before then
  actual = tonumber(stored[3])
end
local delta = actual - estimate

for r, rule in ipairs(rules) do
  local receipt = stored[3 + r]
  local words = receipt and sluice_words(receipt) or {}
  if words[1] == rule.algorithm_name then
    local next_word
    rule.params, next_word = rule.algorithm.parse(words, 2)
    rule.charged = 0
    if not before and delta ~= 0 then
      rule.charged, rule.state = rule.algorithm.settle(rule.keys, rule.params, now,
        { unpack(words, next_word) }, delta)
    end
  end
end
for _, rule in ipairs(rules) do
  if rule.state then
    rule.algorithm.commit(rule.keys, rule.state)
  end
end
local reply = { before and SETTLED_BEFORE or SETTLED, estimate, actual }
for _, rule in ipairs(rules) do
  if rule.params then
    reply[#reply + 1] = 1
    reply[#reply + 1] = rule.charged
    sluice_reply(rule.algorithm.evaluate(rule.keys, rule.params, now, 0), reply)
  else
    for _ = 1, 8 do
      reply[#reply + 1] = 0
    end
  end
end
-- last: a peek that fails (a calendar window's boundaries passed) leaves the record unsettled
if not before then
  redis.call('HSET', record, 'settled', '1', 'actual', sluice_fmt(actual))
end
return reply
