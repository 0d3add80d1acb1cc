import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase, migrate } from '../src/database';
import { SetupError } from '../src/log';
import { freePort } from '@sluice/testing';
import { isListening } from '../src/net';
import { resolvePostgres, withDatabase } from '../src/postgres';
import { pings, REDIS_MISSING, resolveRedis } from '../src/redis';

// Only its owner may enter it (mkdtemp's 0700), like a checkout under /root or in `mktemp -d`.
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sluice-services-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' order by tablename",
    );
    return rows.map((r) => r.tablename);
  } finally {
    await client.end();
  }
}

describe('resolvePostgres', () => {
  it('uses DATABASE_URL when it is set', async () => {
    const url = process.env['SLUICE_TEST_ADMIN_URL'];
    if (!url) throw new Error('run through npm test (SLUICE_TEST_ADMIN_URL)');
    const server = await resolvePostgres({ env: { DATABASE_URL: url }, dataDir: scratch });
    expect(server.source).toBe('env');
    expect(server.databaseUrl('other')).toBe(withDatabase(url, 'other'));
  });

  it('reports a DATABASE_URL it cannot reach instead of falling back', async () => {
    const port = await freePort();
    await expect(
      resolvePostgres({
        env: { DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/x` },
        dataDir: scratch,
      }),
    ).rejects.toThrow(/cannot connect to PostgreSQL via DATABASE_URL/);
  });

  it('starts an embedded PostgreSQL when forced, and the migrations apply to it', async () => {
    const port = await freePort();
    const dataDir = join(scratch, 'pg');
    const server = await resolvePostgres({
      env: { SLUICE_EMBEDDED_POSTGRES: '1', SLUICE_EMBEDDED_POSTGRES_PORT: String(port) },
      dataDir,
    });
    try {
      expect(server.source).toBe('embedded');
      expect(new URL(server.maintenanceUrl).port).toBe(String(port));
      await ensureDatabase(server.maintenanceUrl, 'sluice');
      const url = server.databaseUrl('sluice');
      await migrate(url);
      expect(await tables(url)).toEqual(
        expect.arrayContaining(['Tenant', 'Policy', 'Rule', 'UsageMinute', '_prisma_migrations']),
      );
    } finally {
      await server.stop();
      // as root the data lives outside the checkout (src/embedded.ts): remove it too
      if (server.dataDir && !server.dataDir.startsWith(scratch)) {
        await rm(dirname(server.dataDir), { recursive: true, force: true });
      }
    }
    expect(await isListening('127.0.0.1', port)).toBe(false);
  }, 120_000);
});

describe('resolveRedis', () => {
  it('starts redis-server from PATH when nothing answers, and stops it', async () => {
    const closed = await freePort();
    const port = await freePort();
    const server = await resolveRedis({
      env: { PATH: process.env['PATH'], SLUICE_REDIS_PORT: String(port) },
      localUrl: `redis://127.0.0.1:${closed}`,
      dataDir: join(scratch, 'redis'),
      persist: false,
    });
    try {
      expect(server.source).toBe('spawned');
      expect(server.url).toBe(`redis://127.0.0.1:${port}`);
      expect(await pings(server.url)).toBe(true);
    } finally {
      await server.stop();
    }
    expect(await pings(server.url)).toBe(false);
  });

  it('explains how to get Redis when there is none', async () => {
    const closed = await freePort();
    const attempt = resolveRedis({
      env: { PATH: join(scratch, 'empty-bin') },
      localUrl: `redis://127.0.0.1:${closed}`,
      dataDir: join(scratch, 'redis-none'),
      persist: false,
    });
    await expect(attempt).rejects.toBeInstanceOf(SetupError);
    await expect(attempt).rejects.toThrow(REDIS_MISSING);
    expect(REDIS_MISSING).toContain('docker compose up -d redis');
  });

  it('refuses a REDIS_URL that does not answer', async () => {
    const closed = await freePort();
    await expect(
      resolveRedis({
        env: { REDIS_URL: `redis://127.0.0.1:${closed}` },
        dataDir: scratch,
        persist: false,
      }),
    ).rejects.toThrow(/does not answer PING/);
  });
});
