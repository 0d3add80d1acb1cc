import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { SetupError } from './log';
import { repoRoot } from './paths';

const run = promisify(execFile);

/** Database names this tool creates: letters, digits and underscores only, so quoting is trivial. */
function assertName(name: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name: ${name}`);
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function databaseExists(maintenanceUrl: string, name: string): Promise<boolean> {
  return withClient(maintenanceUrl, async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    return rowCount === 1;
  });
}

export async function ensureDatabase(maintenanceUrl: string, name: string): Promise<void> {
  assertName(name);
  if (await databaseExists(maintenanceUrl, name)) return;
  await withClient(maintenanceUrl, (client) => client.query(`create database "${name}"`));
}

export async function recreateDatabase(maintenanceUrl: string, name: string): Promise<void> {
  assertName(name);
  await withClient(maintenanceUrl, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
}

/** Drops every database whose name starts with `prefix` (leftovers of interrupted test runs). */
export async function dropDatabasesWithPrefix(
  maintenanceUrl: string,
  prefix: string,
): Promise<number> {
  assertName(prefix);
  return withClient(maintenanceUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) {
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
    return rows.length;
  });
}

/** `prisma migrate deploy` against `databaseUrl` (committed migrations only, never generates). */
export async function migrate(databaseUrl: string): Promise<void> {
  try {
    await run(process.execPath, [join(repoRoot, 'tools/dev/prisma.mjs'), 'migrate', 'deploy'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new SetupError(`prisma migrate deploy failed:\n${stdout}${stderr}`);
  }
}
