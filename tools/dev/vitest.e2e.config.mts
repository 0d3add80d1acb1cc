import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.mjs';

// Browser steps poll for what a page shows within 1 s on an idle machine: 10 s leaves a loaded CI
// room (a deadline at least 5x the goal), and a page that never shows it still fails.
export default mergeConfig(
  sharedConfig({ integration: true, e2e: true, include: ['test/**/*.e2e-spec.ts'] }),
  {
    test: { expect: { poll: { timeout: 10_000 } } },
  },
);
