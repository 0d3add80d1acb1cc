import { createRequire } from 'node:module';
import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.mjs';

const require = createRequire(import.meta.url);

export default mergeConfig(sharedConfig({ decorators: true, integration: true }), {
  resolve: {
    // graphql ships CJS (main) and ESM (module) builds; Nest and Apollo load the CJS one, so
    // sources must get it too: a second copy of graphql refuses the first one's types.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
});
