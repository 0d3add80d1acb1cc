import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../src/test-report/record';
import { formatSummary, parseNxOutput } from '../src/test-report/summary';

const nxOutput = [
  '\x1b[1m NX \x1b[22m  Running targets lint, test for 2 projects:',
  '> nx run @sluice/worker:lint',
  '',
  '/repo/apps/worker/src/main.ts',
  '  3:7  error  \x1b[31mx is assigned a value but never used\x1b[39m  @typescript-eslint/no-unused-vars',
  '✖ 1 problem (1 error, 0 warnings)',
  'npm error Lifecycle script `lint` failed with error:',
  'npm error command sh -c eslint .',
  '> nx run @sluice/worker:test',
  ' FAIL  test/webhooks-delivery.spec.ts',
  '',
  ' NX   Running targets lint, test for 2 projects and 2 tasks failed',
  '',
  'Failed tasks:',
  '',
  '- @sluice/worker:lint',
  '- @sluice/worker:test',
  '',
  '  Run duration:      10m 27s',
].join('\n');

function worker(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    project: '@sluice/worker',
    target: 'test',
    unhandled: [],
    files: [
      {
        file: 'apps/worker/test/webhooks-delivery.spec.ts',
        durationMs: 41_200,
        errors: [],
        tests: [
          {
            name: 'webhook delivery › delivers every event once',
            state: 'failed',
            retries: 0,
            errors: [
              {
                message:
                  'expected { inFlight: 1 } to match object { inFlight: 0 }\n\n- Expected\n+ Received\n more',
                at: 'apps/worker/test/webhooks-delivery.spec.ts:77:19',
              },
            ],
          },
          { name: 'webhook delivery › spreads events', state: 'passed', retries: 0, errors: [] },
        ],
      },
      { file: 'apps/worker/test/http.spec.ts', durationMs: 900, errors: [], tests: [] },
    ],
    ...overrides,
  };
}

describe('the end summary of npm test', () => {
  it('reads the failed tasks and each task’s lines from Nx’s static output', () => {
    const nx = parseNxOutput(nxOutput);
    expect(nx.failedTasks).toEqual(['@sluice/worker:lint', '@sluice/worker:test']);
    expect(nx.taskOutput.get('@sluice/worker:lint')?.at(-1)).toBe(
      'npm error command sh -c eslint .',
    );
    // Nx's closing banner is not part of the last task's output
    expect(nx.taskOutput.get('@sluice/worker:test')?.join('\n')).not.toContain('Failed tasks');
  });

  it('names each failed test with its file and first error lines, and a failed task’s tail', () => {
    const lines = formatSummary({
      records: [worker()],
      nx: parseNxOutput(nxOutput),
      setupFailures: [],
      wallMs: 905_000,
    });
    const text = lines.join('\n');
    expect(text).toContain(
      'FAILED @sluice/worker apps/worker/test/webhooks-delivery.spec.ts › webhook delivery › delivers every event once\n' +
        '    expected { inFlight: 1 } to match object { inFlight: 0 }\n' +
        '    - Expected\n' +
        '    at apps/worker/test/webhooks-delivery.spec.ts:77:19',
    );
    // the lint task has no test record: its output's end says why it failed
    expect(text).toContain(
      'FAILED TASK @sluice/worker:lint\n    /repo/apps/worker/src/main.ts\n    3:7  error  x is assigned',
    );
    // npm's closing lines are left out: the tail ends on ESLint's own count
    expect(text).toContain('✖ 1 problem (1 error, 0 warnings)\nFAILED TASK @sluice/worker:test');
    // the test task's failures are already listed: no tail repeated for it
    expect(text).toMatch(/FAILED TASK @sluice\/worker:test\nSlowest test files/);
    expect(text).toContain('Slowest test files (of 2 files, 2 tests; 42.1 s in all test files):');
    expect(text).toMatch(
      /41\.2 s {2}apps\/worker\/test\/webhooks-delivery.spec.ts \(@sluice\/worker\)\n +0\.9 s/,
    );
    expect(lines.at(-1)).toBe(
      'npm test FAILED in 905.0 s: 1 failed tests or files, 0 retried, 2 failed Nx tasks',
    );
  });

  it('names a test that passed only on its retry, and a hook that failed outside any test', () => {
    const run = worker();
    run.files[0]!.tests[0] = { ...run.files[0]!.tests[0]!, state: 'passed', retries: 1 };
    run.files[1]!.errors.push({
      message: 'Hook timed out in 60000ms',
      at: 'apps/worker/test/http.spec.ts:12:3',
    });
    const text = formatSummary({
      records: [run],
      nx: parseNxOutput(''),
      setupFailures: [],
      wallMs: 1000,
    }).join('\n');
    expect(text).toContain(
      'RETRIED @sluice/worker apps/worker/test/webhooks-delivery.spec.ts › webhook delivery › delivers every event once (passed on retry 1)\n' +
        '    first attempt: expected { inFlight: 1 } to match object { inFlight: 0 } at apps/worker/test/webhooks-delivery.spec.ts:77:19',
    );
    expect(text).toContain(
      'FAILED @sluice/worker apps/worker/test/http.spec.ts\n    Hook timed out in 60000ms\n    at apps/worker/test/http.spec.ts:12:3',
    );
  });

  it('fits in 60 lines however much failed, and says what failed before Nx ran', () => {
    const many = worker();
    const failing = many.files[0]!.tests[0]!;
    many.files[0]!.tests = Array.from({ length: 40 }, (_, i) => ({
      ...failing,
      name: `test ${i}`,
      // half failed, half passed on their retry
      ...(i % 2 ? { state: 'passed' as const, retries: 1 } : {}),
    }));
    const files = Array.from({ length: 30 }, (_, i) => ({
      file: `libs/x/test/f${i}.spec.ts`,
      durationMs: i * 1000,
      errors: [],
      tests: [],
    }));
    // every project's lint failed, each with a long output
    const tasks = Array.from({ length: 12 }, (_, i) => `@sluice/p${i}:lint`);
    const nx = parseNxOutput(
      [
        ...tasks.flatMap((task) => [
          `> nx run ${task}`,
          ...Array.from({ length: 20 }, (_, i) => `error ${i}`),
        ]),
        'Failed tasks:',
        '',
        ...tasks.map((task) => `- ${task}`),
      ].join('\n'),
    );
    const lines = formatSummary({
      records: [many, { project: '@sluice/x', target: 'test', unhandled: [], files }],
      nx,
      setupFailures: ['prettier --check: README.md (fix with `npm run format`)'],
      wallMs: 1000,
    });
    expect(lines.length).toBeLessThanOrEqual(60);
    expect(lines).toContain('FAILED prettier --check: README.md (fix with `npm run format`)');
    expect(lines).toContain('… and 15 more failures (FAIL lines above)');
    expect(lines).toContain("… and 17 more retried (the runners' output above)");
    expect(lines).toContain("… and 7 more failed tasks (Nx's list above)");
    expect(lines.filter((line) => line.startsWith('    error '))).toHaveLength(10);
    expect(lines.filter((line) => line.startsWith('  ') && line.includes(' s  '))).toHaveLength(10);
  });
});
