import { createScriptSet, readLibVersion } from '@sluice/algorithms';
import path from 'node:path';

const LIB_DIR = path.join(__dirname, '..');

/** `lua/` beside `src/` and `dist/`, as in the algorithms lib. */
export const WEBHOOKS_LUA_DIR = path.join(LIB_DIR, 'lua');

export type WebhooksScript = 'record_outcome';

/** e.g. `sluice_webhooks_record_outcome_v0_1_0`, through the algorithms lib's script mechanism. */
export const webhookScripts = createScriptSet<WebhooksScript>({
  dir: WEBHOOKS_LUA_DIR,
  namespace: 'webhooks',
  version: readLibVersion(LIB_DIR),
});
