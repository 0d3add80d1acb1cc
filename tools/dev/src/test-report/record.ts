/**
 * What one Vitest run (one Nx `test` or `e2e` task) leaves in the report folder for the summary
 * that `npm test` prints at its end: one JSON file per run, written by {@link SummaryReporter}.
 */
export interface RunRecord {
  /** The package name, e.g. `@sluice/worker`. */
  project: string;
  /** The npm script that ran Vitest: `test` or `e2e`. */
  target: string;
  files: FileRecord[];
  /** Errors outside any test file (an unhandled rejection, a worker that crashed). */
  unhandled: ErrorRecord[];
}

export interface FileRecord {
  /** Relative to the repository root. */
  file: string;
  /** Time spent importing the file plus running its tests and hooks, in ms. */
  durationMs: number;
  /** Failures outside a test: a `beforeAll` that threw, an import that failed. */
  errors: ErrorRecord[];
  tests: TestRecord[];
}

export interface TestRecord {
  /** Suites and test, joined with ` › `. */
  name: string;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** How many times the test ran again after failing (CI retries e2e tests once). */
  retries: number;
  errors: ErrorRecord[];
}

export interface ErrorRecord {
  message: string;
  /** `file:line:column` of the frame nearest the failure, when Vitest parsed one. */
  at?: string;
}
