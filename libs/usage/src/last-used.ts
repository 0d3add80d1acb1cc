import path from 'node:path';
import { createScriptSet, readLibVersion } from '@sluice/algorithms';
import type { ChainableCommander } from 'ioredis';

const LIB_DIR = path.join(__dirname, '..');

/** `lua/` beside `src/` and `dist/`, as in the algorithms lib. */
export const USAGE_LUA_DIR = path.join(LIB_DIR, 'lua');

/** e.g. `sluice_usage_touch_last_used_v0_1_0`, through the algorithms lib's script mechanism. */
export const usageScripts = createScriptSet<'touch_last_used' | 'claim_alerts'>({
  dir: USAGE_LUA_DIR,
  namespace: 'usage',
  version: readLibVersion(LIB_DIR),
});

/** Queues the script on a pipeline of a registered connection: key id and ms epoch pairs. */
export function queueTouchLastUsed(
  pipeline: ChainableCommander,
  key: string,
  keyIdsAndTimes: readonly (string | number)[],
): void {
  usageScripts.queue(pipeline, 'touch_last_used', [key], keyIdsAndTimes);
}
