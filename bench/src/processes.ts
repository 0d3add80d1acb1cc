import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The server under test runs on one CPU; the load generator and Redis share the other. */
export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

/** Enough of a child's output to explain why it failed. */
const OUTPUT_TAIL = 16_384;

export interface Pinned {
  readonly name: string;
  readonly pid: number;
  /** Everything written to stdout (the load generator's result). */
  stdout(): string;
  /** The last lines of stdout and stderr together. */
  tail(): string;
  exited(): boolean;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exit: Promise<number | null>;
}

const running = new Map<number, Pinned>();

/** `taskset -c <cpu> command ...args`: taskset execs the command, so the PID is the command's. */
export function spawnPinned(
  name: string,
  cpu: number,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Pinned {
  const child: ChildProcess = spawn('taskset', ['-c', String(cpu), command, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) {
    // the spawn failure also arrives as an 'error' event, which must not go unhandled
    child.once('error', () => undefined);
    throw new Error(`could not start ${name} (is taskset installed?)`);
  }
  const pid = child.pid;
  let stdout = '';
  let tail = '';
  let done = false;
  const keepTail = (chunk: Buffer): void => {
    tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL);
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    keepTail(chunk);
  });
  child.stderr?.on('data', keepTail);
  const exit = new Promise<number | null>((resolve) => {
    child.once('error', (error) => {
      keepTail(Buffer.from(String(error)));
      done = true;
      running.delete(pid);
      resolve(null);
    });
    child.once('exit', (code) => {
      done = true;
      running.delete(pid);
      resolve(code);
    });
  });
  const pinned: Pinned = {
    name,
    pid,
    stdout: () => stdout,
    tail: () => tail,
    exited: () => done,
    exit,
  };
  running.set(pid, pinned);
  return pinned;
}

/** SIGTERM by PID, SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stop(pinned: Pinned, graceMs = 5000): Promise<void> {
  if (pinned.exited()) return;
  signal(pinned.pid, 'SIGTERM');
  const timer = setTimeout(() => signal(pinned.pid, 'SIGKILL'), graceMs);
  await pinned.exit;
  clearTimeout(timer);
}

/** Stops every process this run started, newest first. */
export async function stopAll(): Promise<void> {
  for (const pinned of [...running.values()].reverse()) await stop(pinned);
}

/**
 * Ctrl-C, SIGTERM and SIGHUP stop every started process before leaving; a crash that skips the
 * async path still SIGKILLs them by PID on exit.
 */
export function stopAllOnExit(): void {
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(name, () => {
      process.stderr.write(`\n${name}: stopping ${running.size} process(es)\n`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  process.once('exit', () => {
    for (const pid of running.keys()) signal(pid, 'SIGKILL');
  });
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** A port the OS reports free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Clock ticks of `/proc/<pid>/stat`'s utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used so far (user and system, every thread), from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name (field 2) may hold spaces: count fields after its closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it returns a value, failing early with the process's output when it exits.
 */
export async function waitFor<T>(
  what: string,
  pinned: Pinned,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pinned.exited()) throw new Error(`${pinned.name} exited before ${what}:\n${pinned.tail()}`);
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(100);
  }
  throw new Error(`${pinned.name}: no ${what} after ${timeoutMs} ms:\n${pinned.tail()}`);
}
