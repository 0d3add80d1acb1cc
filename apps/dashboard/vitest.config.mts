import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.mjs';

// Routes live under src/app, shared code under src and the custom server under server; their
// specs sit beside them. `@/` is src, as in the app (tsconfig's paths).
export default mergeConfig(
  sharedConfig({
    include: ['src/**/*.spec.ts', 'src/**/*.spec.tsx', 'server/**/*.spec.ts'],
  }),
  { resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } } },
);
