import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { REPORT_DIR_ENV, SummaryReporter } from './tools/dev/src/test-report/reporter.mjs';

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
  /**
   * Whole-stack browser specs: in CI a failed test runs once more, and the end summary of
   * `npm test` names it (RETRIED) so that it gets fixed. Unit and integration tests never retry.
   */
  e2e?: boolean;
}

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
// `npm test` collects every run's failures, retries and file times for its end summary
const reportDir = process.env[REPORT_DIR_ENV];
const reporters = reportDir ? ['default', new SummaryReporter(reportDir, repoRoot)] : ['default'];

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
      reporters,
      retry: options.e2e && process.env['CI'] ? 1 : 0,
      ...(options.integration ? { fileParallelism: false } : {}),
    },
  });
}
