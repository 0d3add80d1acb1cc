import { sharedConfig } from '../../vitest.shared.mjs';

// Routes live under src/app, shared code under src and the custom server under server; their
// specs sit beside them.
export default sharedConfig({
  include: ['src/**/*.spec.ts', 'src/**/*.spec.tsx', 'server/**/*.spec.ts'],
});
