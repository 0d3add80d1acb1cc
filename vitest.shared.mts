import swc from 'unplugin-swc';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

// Workspace libs resolve to their TypeScript sources in tests (the `@sluice/source` export
// condition); the rest are Vite's defaults for server code (`defaultServerConditions`). Vitest also
// hands these to Node for external packages, so no `import` here: CJS packages would get ESM builds.
const conditions = ['@sluice/source', 'module', 'node', 'development|production'];

export interface SharedOptions {
  /** Nest code needs decorator metadata, which only SWC (not esbuild) emits. */
  decorators?: boolean;
  /** Integration specs talk to real services: give them room and run files one at a time. */
  integration?: boolean;
  /** Test file globs, relative to the project (default: spec files under src and test). */
  include?: string[];
}

export function sharedConfig(options: SharedOptions = {}): ViteUserConfig {
  return defineConfig({
    plugins: options.decorators ? [swc.vite({ module: { type: 'es6' } })] : [],
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      include: options.include ?? ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
      environment: 'node',
      testTimeout: options.integration ? 60_000 : 10_000,
      hookTimeout: 60_000,
      ...(options.integration ? { fileParallelism: false } : {}),
    },
  });
}
