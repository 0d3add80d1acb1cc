import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, freePort, type TestDatabase } from '@sluice/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/net';
import { repoRoot } from '../src/paths';

// `npm start` end to end, minus the build (Nx builds the apps before this target runs): it must
// migrate and seed the database it is given, start all four apps and stop them on SIGINT.
describe('npm start', () => {
  let db: TestDatabase;
  let child: ChildProcess;
  let output = '';
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    for (const name of ['CONTROL_PLANE_PORT', 'DATA_PLANE_PORT', 'WORKER_PORT', 'DASHBOARD_PORT']) {
      ports[name] = await freePort();
    }
    child = spawn(
      process.execPath,
      // as the root package.json's start script runs it: one process, so SIGINT reaches main.ts
      [
        '--conditions=@sluice/source',
        '--import',
        'tsx',
        join(repoRoot, 'tools/dev/src/main.ts'),
        'start',
        '--no-build',
      ],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          SLUICE_KEY_PREFIX: `t:start:${process.pid}:`,
          ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(
      'npm start to report the apps running',
      async () => {
        if (child.exitCode !== null) throw new Error(`start exited early:\n${output}`);
        return output.includes('press Ctrl-C to stop');
      },
      120_000,
      250,
    );
  }, 150_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    // After a failed test the apps may outlive their supervisor: stop them by the PIDs it printed.
    for (const [, pid] of output.matchAll(/\(pid (\d+)\)/g)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await db?.drop();
  });

  it('prints every app URL and each answers /healthz', async () => {
    const expected = {
      'control-plane': ports['CONTROL_PLANE_PORT'],
      'data-plane': ports['DATA_PLANE_PORT'],
      worker: ports['WORKER_PORT'],
      dashboard: ports['DASHBOARD_PORT'],
    };
    for (const [service, port] of Object.entries(expected)) {
      const url = `http://127.0.0.1:${port}`;
      expect(output).toContain(url);
      const response = await fetch(`${url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok', service });
    }
  });

  it('migrated and seeded the database it was given', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ slug: string; plan: string }>(
        'select t.slug, p.slug as plan from "Tenant" t join "Plan" p on p.id = t."planId"',
      );
      expect(rows).toEqual([{ slug: 'demo', plan: 'free' }]);
    } finally {
      await client.end();
    }
  });

  it('stops every app on SIGINT and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    }
  }, 30_000);
});
