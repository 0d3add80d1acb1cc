import type { ChainableCommander, Cluster, Redis } from 'ioredis';

/**
 * Raises API keys' last-used times, never lowers them: several data planes flush in any order,
 * and a plain HSET would let an older flush overwrite a newer time. A read-then-HSET from the
 * client would race between instances and cost a round trip; the script is atomic and pipelined.
 */
const TOUCH_LAST_USED_LUA = `
local raised = 0
for i = 1, #ARGV, 2 do
  local current = tonumber(redis.call('HGET', KEYS[1], ARGV[i]))
  if current == nil or tonumber(ARGV[i + 1]) > current then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    raised = raised + 1
  end
end
return raised
`;

export const TOUCH_LAST_USED = 'sluice_usage_touch_last_used';

/** ioredis then sends EVAL once per connection and EVALSHA afterwards, in pipelines too. */
export function defineTouchLastUsed(redis: Redis | Cluster): void {
  redis.defineCommand(TOUCH_LAST_USED, { numberOfKeys: 1, lua: TOUCH_LAST_USED_LUA });
}

interface TouchLastUsedCommander {
  [TOUCH_LAST_USED](key: string, ...keyIdsAndTimes: (string | number)[]): unknown;
}

/** Queues the script: KEYS[1] the tenant's hash, ARGV key id and ms epoch pairs. */
export function queueTouchLastUsed(
  pipeline: ChainableCommander,
  key: string,
  keyIdsAndTimes: (string | number)[],
): void {
  // defineCommand adds the method at runtime, so the typings cannot know it
  (pipeline as unknown as TouchLastUsedCommander)[TOUCH_LAST_USED](key, ...keyIdsAndTimes);
}
