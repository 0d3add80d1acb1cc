import path from 'node:path';
import { createScriptSet, readLibVersion } from '@sluice/algorithms';

const LIB_DIR = path.join(__dirname, '..');

/** `lua/` beside `src/` and `dist/`, as in the algorithms lib. */
export const POLICY_LUA_DIR = path.join(LIB_DIR, 'lua');

export type PolicyScript = 'publish_tenant' | 'delete_tenant';

/** e.g. `sluice_policy_publish_tenant_v0_1_0`, through the algorithms lib's script mechanism. */
export const policyScripts = createScriptSet<PolicyScript>({
  dir: POLICY_LUA_DIR,
  namespace: 'policy',
  version: readLibVersion(LIB_DIR),
});
