--[[
  Raises API keys' last-used times, never lowers them: several data planes flush in any order,
  and a plain HSET would let an older flush overwrite a newer time. A read-then-HSET from the
  client would race between instances and cost a round trip; the script is atomic and pipelined.

  KEYS[1]  the tenant's last-used hash `<prefix>apikey-last-used:{<tenantId>}`: key id -> ms epoch
  ARGV[1]  a key id, ARGV[2] its last use (ms epoch); then more such pairs

  Returns  how many key ids were raised (or set for the first time)
]]
local raised = 0
for i = 1, #ARGV, 2 do
  local current = tonumber(redis.call('HGET', KEYS[1], ARGV[i]))
  if current == nil or tonumber(ARGV[i + 1]) > current then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    raised = raised + 1
  end
end
return raised
