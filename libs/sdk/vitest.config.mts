import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.mjs';

// One data plane (the built app, a child process) serves every spec file: see test/global-setup.ts.
export default mergeConfig(sharedConfig({ decorators: true, integration: true }), {
  test: { globalSetup: ['test/global-setup.ts'] },
});
