import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type {
  Reporter,
  SerializedError,
  TestCase,
  TestModule,
  TestRunEndReason,
  Vitest,
} from 'vitest/node';
import type { ErrorRecord, FileRecord, RunRecord, TestRecord } from './record.js';

/** Names the folder `npm test` points every Vitest run at (see vitest.shared.mts). */
export const REPORT_DIR_ENV = 'SLUICE_TEST_REPORT_DIR';

/**
 * A Vitest reporter, beside the default one, that writes what `npm test`'s end summary needs
 * (failures with their first lines, retries, each file's time) as one JSON file per run. Nx's own
 * summary names only the failed task; this names the test.
 */
export class SummaryReporter implements Reporter {
  private projectRoot = process.cwd();

  constructor(
    private readonly reportDir: string,
    private readonly repoRoot: string,
  ) {}

  onInit(vitest: Vitest): void {
    this.projectRoot = vitest.config.root;
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    _reason: TestRunEndReason,
  ): void {
    const project = this.projectName();
    // npm sets the script's name; Nx runs `npm run test` or `npm run e2e`
    const target = process.env['npm_lifecycle_event'] ?? 'test';
    const record: RunRecord = {
      project,
      target,
      files: testModules.map((module) => this.fileRecord(module)),
      unhandled: unhandledErrors.map((error) => this.errorRecord(error)),
    };
    mkdirSync(this.reportDir, { recursive: true });
    const name = `${project.replace(/[^a-zA-Z0-9.-]+/g, '_')}.${target}.json`;
    writeFileSync(join(this.reportDir, name), JSON.stringify(record, null, 1));
  }

  private projectName(): string {
    try {
      const pkg = JSON.parse(readFileSync(join(this.projectRoot, 'package.json'), 'utf8')) as {
        name?: string;
      };
      return pkg.name ?? relative(this.repoRoot, this.projectRoot);
    } catch {
      return relative(this.repoRoot, this.projectRoot);
    }
  }

  private fileRecord(module: TestModule): FileRecord {
    const diagnostic = module.diagnostic();
    const suiteErrors = [...module.children.allSuites()].flatMap((suite) =>
      suite.errors().map((error) => this.errorRecord(error, suite.fullName)),
    );
    return {
      file: relative(this.repoRoot, module.moduleId),
      durationMs: Math.round(diagnostic.collectDuration + diagnostic.duration),
      errors: [...module.errors().map((error) => this.errorRecord(error)), ...suiteErrors],
      tests: [...module.children.allTests()].map((test) => this.testRecord(test)),
    };
  }

  private testRecord(test: TestCase): TestRecord {
    const result = test.result();
    return {
      name: test.fullName.split(' > ').join(' › '),
      state: result.state,
      retries: test.diagnostic()?.retryCount ?? 0,
      errors: (result.errors ?? []).map((error) => this.errorRecord(error)),
    };
  }

  private errorRecord(error: SerializedError, where?: string): ErrorRecord {
    const name = error.name && !error.message.startsWith(error.name) ? `${error.name}: ` : '';
    const message = `${where ? `(in ${where}) ` : ''}${name}${error.message}`;
    const frame = error.stacks?.find((stack) => !stack.file.includes('node_modules'));
    return frame
      ? { message, at: `${relative(this.repoRoot, frame.file)}:${frame.line}:${frame.column}` }
      : { message };
  }
}
