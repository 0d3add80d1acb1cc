--[[
  Claims one tenant's threshold alerts, so each goes out once whatever the number of data planes
  that saw it: a claim is a SET NX living until its window is over. Only a tenant with an enabled
  webhook endpoint claims anything; for the others this is one HEXISTS. A claim holds the
  claimer's nonce, so the same data plane retrying after a lost reply still finds it its own.

  KEYS[1]     the tenant's webhook endpoints hash `<prefix>webhook-endpoints:{<tenantId>}`
  KEYS[2..n]  one claim key per alert `<prefix>quota-alert:{<tenantId>}:…`
  ARGV[1]     the field of KEYS[1] present while the tenant has an enabled endpoint
  ARGV[2..]   per claim key, in order: the claimer's nonce, then the claim's expiry (ms epoch)

  Returns  { 0 } when the tenant has no enabled endpoint (nothing claimed); else
           { 1, c1, c2, … }: ci = 1 when alert i is this claimer's, 0 when another claimed it
]]
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return { 0 }
end
local result = { 1 }
for i = 2, #KEYS do
  local nonce = ARGV[2 * i - 2]
  local claimed = redis.call('SET', KEYS[i], nonce, 'NX', 'PXAT', ARGV[2 * i - 1])
  if claimed or redis.call('GET', KEYS[i]) == nonce then
    result[i] = 1
  else
    result[i] = 0
  end
end
return result
