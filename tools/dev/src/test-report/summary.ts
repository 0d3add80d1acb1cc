import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorRecord, RunRecord } from './record';

/** What Nx's own output says: the tasks that failed, and each task's lines (static output style). */
export interface NxOutcome {
  failedTasks: string[];
  taskOutput: Map<string, string[]>;
}

export interface SummaryInput {
  records: RunRecord[];
  nx: NxOutcome;
  /** Failures before Nx ran (formatting, services), one line each. */
  setupFailures: string[];
  wallMs: number;
}

/**
 * The end summary fits in CI's last 60 lines however much failed (2 + 2 + 5×4 + 1 + 3×2 + 1 + 6 +
 * 2×5 + 11 + 1 at most): the rest of a long failure list is in the runners' output above it.
 */
const MAX_FAILED_TESTS = 5;
const ERROR_LINES = 2;
const MAX_RETRIED = 3;
const MAX_TASKS = 5;
const MAX_TASK_TAILS = 2;
const TASK_TAIL_LINES = 5;
const SLOWEST_FILES = 10;
const MAX_LINE = 220;

// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

export function readRunRecords(dir: string): RunRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as RunRecord);
}

/** Reads `nx run-many --output-style=static` output: `> nx run p:t` heads each task's lines. */
export function parseNxOutput(text: string): NxOutcome {
  const taskOutput = new Map<string, string[]>();
  const failedTasks: string[] = [];
  let current: string[] | undefined;
  let inFailedList = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(ANSI, '').trimEnd();
    const heading = /^> nx run (\S+)/.exec(line);
    if (heading?.[1]) {
      current = [];
      taskOutput.set(heading[1], current);
      continue;
    }
    if (/Failed tasks:/.test(line)) {
      inFailedList = true;
      current = undefined;
      continue;
    }
    if (inFailedList) {
      const task = /^\s*-\s+(\S+:\S+)/.exec(line);
      if (task?.[1]) failedTasks.push(task[1]);
      else if (line.trim() !== '' && failedTasks.length > 0) inFailedList = false;
      continue;
    }
    // Nx's closing banner ends the last task's lines
    if (/^\s*NX\s/.test(line)) current = undefined;
    current?.push(line);
  }
  return { failedTasks, taskOutput };
}

export function formatSummary(input: SummaryInput): string[] {
  const out: string[] = ['', '──────────── npm test: summary ────────────'];
  for (const failure of input.setupFailures) out.push(`FAILED ${failure}`);

  const failed: string[][] = [];
  const retried: string[][] = [];
  const projectsWithFailures = new Set<string>();
  for (const run of input.records) {
    for (const file of run.files) {
      for (const error of file.errors) {
        failed.push([`FAILED ${run.project} ${file.file}`, ...errorLines(error)]);
        projectsWithFailures.add(`${run.project}:${run.target}`);
      }
      for (const test of file.tests) {
        const title = `${run.project} ${file.file} › ${test.name}`;
        if (test.state === 'failed') {
          failed.push([`FAILED ${title}`, ...test.errors.slice(0, 1).flatMap(errorLines)]);
          projectsWithFailures.add(`${run.project}:${run.target}`);
        } else if (test.state === 'passed' && test.retries > 0) {
          // what the failed attempt said: a flaky test is fixed from this line
          const first = test.errors[0];
          const why = first
            ? `${first.message.split('\n')[0] ?? ''}${first.at ? ` at ${first.at}` : ''}`
            : '';
          retried.push([
            `RETRIED ${title} (passed on retry ${test.retries})`,
            ...(why ? [`    first attempt: ${clip(why)}`] : []),
          ]);
        }
      }
    }
    for (const error of run.unhandled) {
      failed.push([`FAILED ${run.project} (outside any test)`, ...errorLines(error)]);
      projectsWithFailures.add(`${run.project}:${run.target}`);
    }
  }
  for (const lines of failed.slice(0, MAX_FAILED_TESTS)) out.push(...lines);
  if (failed.length > MAX_FAILED_TESTS) {
    out.push(`… and ${failed.length - MAX_FAILED_TESTS} more failures (FAIL lines above)`);
  }
  out.push(...retried.slice(0, MAX_RETRIED).flat());
  if (retried.length > MAX_RETRIED) {
    out.push(`… and ${retried.length - MAX_RETRIED} more retried (the runners' output above)`);
  }

  let tails = 0;
  for (const task of input.nx.failedTasks.slice(0, MAX_TASKS)) {
    out.push(`FAILED TASK ${task}`);
    // a test task's failures are listed above; any other task shows how its output ended
    if (projectsWithFailures.has(task) || tails >= MAX_TASK_TAILS) continue;
    tails += 1;
    // npm's own lines (the script it ran, "npm error command failed") say nothing of the cause
    const lines = (input.nx.taskOutput.get(task) ?? []).filter(
      (line) => line.trim() !== '' && !/^(npm (error|ERR!|warn)|> )/.test(line),
    );
    for (const line of lines.slice(-TASK_TAIL_LINES)) out.push(`    ${clip(line.trim())}`);
  }
  if (input.nx.failedTasks.length > MAX_TASKS) {
    out.push(
      `… and ${input.nx.failedTasks.length - MAX_TASKS} more failed tasks (Nx's list above)`,
    );
  }

  const files = input.records.flatMap((run) =>
    run.files.map((file) => ({ ...file, project: run.project })),
  );
  const totalMs = files.reduce((sum, file) => sum + file.durationMs, 0);
  const tests = files.reduce((sum, file) => sum + file.tests.length, 0);
  out.push(
    `Slowest test files (of ${files.length} files, ${tests} tests; ${seconds(totalMs)} in all test files):`,
  );
  for (const file of [...files]
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, SLOWEST_FILES)) {
    out.push(`  ${seconds(file.durationMs).padStart(8)}  ${file.file} (${file.project})`);
  }
  const verdict =
    failed.length + input.nx.failedTasks.length + input.setupFailures.length === 0
      ? 'passed'
      : 'FAILED';
  out.push(
    `npm test ${verdict} in ${seconds(input.wallMs)}: ${failed.length} failed tests or files, ` +
      `${retried.length} retried, ${input.nx.failedTasks.length} failed Nx tasks`,
  );
  return out;
}

function errorLines(error: ErrorRecord): string[] {
  const lines = error.message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, ERROR_LINES)
    .map((line) => `    ${clip(line)}`);
  if (error.at) lines.push(`    at ${error.at}`);
  return lines;
}

function clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
