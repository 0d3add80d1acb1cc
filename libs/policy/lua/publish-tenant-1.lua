--[[
  Publishes a tenant's compiled configuration: compare-and-set on its version, then the change
  message, in one atomic step (no reader sees a version whose message was never sent).

  KEYS[1]  the tenant hash `<prefix>tenant:{<tenantId>}`: version, publishedAt, config
           (a deleted tenant leaves a tombstone: version, deletedAt, so versions keep growing)
  ARGV[1]  the new version (integer >= 1), or 'next' for the stored version + 1
  ARGV[2]  config: the compiled tenant as JSON (stored as given, never re-encoded)
  ARGV[3]  the change channel
  ARGV[4]  the tenant id, for the change message

  Returns  { 1, version, publishedAt (ms, Redis clock) } when stored,
           { 0, stored version } when the version is not above the stored one
]]
local stored = tonumber(redis.call('HGET', KEYS[1], 'version')) or 0
local version = stored + 1
if ARGV[1] ~= 'next' then
  version = tonumber(ARGV[1])
  if version <= stored then
    return { 0, stored }
  end
end

local time = redis.call('TIME')
local published_at = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'version', string.format('%d', version),
  'publishedAt', string.format('%d', published_at), 'config', ARGV[2])
redis.call('PUBLISH', ARGV[3], string.format('{"kind":"tenant","tenantId":%s,"version":%d}',
  cjson.encode(ARGV[4]), version))
return { 1, version, published_at }
