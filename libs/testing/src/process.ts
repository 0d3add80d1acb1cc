import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns a server and resolves once `ready(url)` answers true (polled), or rejects with its
 * output when it exits or `timeoutMs` passes.
 */
export async function startServer(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { readyUrl: string; timeoutMs?: number },
): Promise<ServerProcess> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const server: ServerProcess = {
    child,
    output: () => output,
    stop: (graceMs = 5000) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} exited early:\n${output}`);
    try {
      const response = await fetch(options.readyUrl, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await server.stop();
  throw new Error(`${command} not ready at ${options.readyUrl}:\n${output}`);
}
