import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SetupError } from './log';
import { waitFor } from './net';
import { repoRoot } from './paths';

export type AppName = 'control-plane' | 'data-plane' | 'worker' | 'dashboard';

export interface AppPorts {
  'control-plane': number;
  'data-plane': number;
  worker: number;
  dashboard: number;
}

export interface RunningApp {
  readonly name: AppName;
  readonly url: string;
  readonly pid: number;
  readonly logFile: string;
}

export interface AppGroup {
  readonly apps: readonly RunningApp[];
  /** SIGTERM to each app, SIGKILL after `graceMs`; resolves when all have exited. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves with the first app that exits on its own. */
  readonly exited: Promise<{ name: AppName; code: number | null }>;
}

const PORT_VARIABLE: Record<AppName, string> = {
  'control-plane': 'CONTROL_PLANE_PORT',
  'data-plane': 'DATA_PLANE_PORT',
  worker: 'WORKER_PORT',
  dashboard: 'DASHBOARD_PORT',
};

export const DEFAULT_PORTS: AppPorts = {
  'control-plane': 4000,
  'data-plane': 4100,
  worker: 4200,
  dashboard: 3000,
};

/** Ports from the environment's *_PORT variables, else the defaults. */
export function portsFrom(env: NodeJS.ProcessEnv): AppPorts {
  const ports = { ...DEFAULT_PORTS };
  for (const name of Object.keys(ports) as AppName[]) {
    const value = env[PORT_VARIABLE[name]];
    if (value !== undefined) ports[name] = Number(value);
  }
  return ports;
}

function commandFor(name: AppName): { args: string[]; cwd: string } {
  if (name === 'dashboard') {
    // Next's build and the custom server that proxies /graphql to the control plane
    const cwd = join(repoRoot, 'apps/dashboard');
    const server = join(cwd, 'dist/server/main.js');
    if (!existsSync(join(cwd, '.next/BUILD_ID')) || !existsSync(server)) {
      throw new SetupError('apps/dashboard is not built: run `npm run build` (npm start does)');
    }
    return { args: [server], cwd };
  }
  const main = join(repoRoot, 'apps', name, 'dist/main.js');
  if (!existsSync(main)) {
    throw new SetupError(`apps/${name} is not built: run \`npm run build\` (npm start does)`);
  }
  return { args: [main], cwd: join(repoRoot, 'apps', name) };
}

/**
 * Starts the apps given ports (`npm start`: all four) from their builds, each logging to
 * `<logDir>/<app>.log`, and waits until every one answers GET /healthz.
 */
export async function startApps(options: {
  env: NodeJS.ProcessEnv;
  ports: Partial<AppPorts>;
  logDir: string;
  host?: string;
  timeoutMs?: number;
}): Promise<AppGroup> {
  const host = options.host ?? '127.0.0.1';
  await mkdir(options.logDir, { recursive: true });
  const children: { name: AppName; child: ChildProcess; app: RunningApp }[] = [];
  const names = Object.keys(options.ports) as AppName[];
  for (const name of names) {
    const port = options.ports[name];
    if (port === undefined) continue;
    const { args, cwd } = commandFor(name);
    const logFile = join(options.logDir, `${name}.log`);
    const out = createWriteStream(logFile, { flags: 'a' });
    const controlPlane = options.ports['control-plane'];
    const child = spawn(process.execPath, args, {
      cwd,
      env: {
        // the dashboard's server proxies /graphql to the control plane started beside it
        ...(name === 'dashboard' &&
          controlPlane !== undefined && { CONTROL_PLANE_URL: `http://${host}:${controlPlane}` }),
        ...options.env,
        HOST: host,
        [PORT_VARIABLE[name]]: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
    children.push({
      name,
      child,
      app: { name, url: `http://${host}:${port}`, pid: child.pid ?? -1, logFile },
    });
  }

  const exited = new Promise<{ name: AppName; code: number | null }>((resolve) => {
    for (const { name, child } of children) child.once('exit', (code) => resolve({ name, code }));
  });
  const group: AppGroup = {
    apps: children.map((c) => c.app),
    exited,
    stop: (graceMs = 10_000) =>
      Promise.all(
        children.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
              child.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              child.kill('SIGTERM');
            }),
        ),
      ).then(() => undefined),
  };

  try {
    await Promise.all(
      children.map(({ app, child }) =>
        waitFor(
          `${app.name} at ${app.url}/healthz`,
          async () => {
            if (child.exitCode !== null) {
              throw new SetupError(
                `${app.name} exited with code ${child.exitCode}; see ${app.logFile}`,
              );
            }
            return healthy(`${app.url}/healthz`);
          },
          options.timeoutMs ?? 60_000,
          200,
        ),
      ),
    );
  } catch (error) {
    await group.stop(2000);
    throw error;
  }
  return group;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}
