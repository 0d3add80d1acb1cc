--[[
  Deletes a tenant's configuration, leaving a tombstone so its version keeps growing (a delayed
  publish of an older version cannot bring it back), and sends the change message.

  KEYS[1]  the tenant hash `<prefix>tenant:{<tenantId>}`
  ARGV[1]  the change channel
  ARGV[2]  the tenant id, for the change message

  Returns  1 when a configuration was deleted, 0 when there was none (nothing is sent)
]]
if redis.call('HEXISTS', KEYS[1], 'config') == 0 then
  return 0
end
local version = tonumber(redis.call('HGET', KEYS[1], 'version')) or 0
local time = redis.call('TIME')
local deleted_at = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'version', string.format('%d', version + 1),
  'deletedAt', string.format('%d', deleted_at))
redis.call('PUBLISH', ARGV[1], string.format('{"kind":"tenant-deleted","tenantId":%s}',
  cjson.encode(ARGV[2])))
return 1
