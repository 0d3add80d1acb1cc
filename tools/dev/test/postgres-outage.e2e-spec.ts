import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestRedis, freePort, type TestRedis } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApps, type AppGroup } from '../src/apps';
import { ensureDatabase, migrate } from '../src/database';
import { rootFolder } from '../src/embedded';
import { waitFor } from '../src/net';
import { resolvePostgres, type PostgresServer } from '../src/postgres';
import { seedDemo } from '../src/seed';

// The data plane never reads PostgreSQL: with the control plane's database stopped, /v1/check
// keeps deciding from what Redis holds. The database is an embedded PostgreSQL of this test's
// own, so stopping it disturbs nothing else.
describe('PostgreSQL down', () => {
  let scratch: string;
  let postgres: PostgresServer;
  let redis: TestRedis;
  let apps: AppGroup;
  let dataPlane: string;
  let controlPlane: string;
  let apiKey: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sluice-pg-outage-'));
    postgres = await resolvePostgres({
      env: {
        SLUICE_EMBEDDED_POSTGRES: '1',
        SLUICE_EMBEDDED_POSTGRES_PORT: String(await freePort()),
      },
      dataDir: join(scratch, 'pg'),
    });
    await ensureDatabase(postgres.maintenanceUrl, 'sluice');
    const databaseUrl = postgres.databaseUrl('sluice');
    await migrate(databaseUrl);
    redis = createTestRedis('pg-outage');
    const seed = await seedDemo({ databaseUrl, apiKeyFile: join(scratch, 'demo-api-key') });
    apiKey = (await readFile(join(scratch, 'demo-api-key'), 'utf8')).trim();
    const ports = { 'control-plane': await freePort(), 'data-plane': await freePort() };
    apps = await startApps({
      env: {
        PATH: process.env['PATH'],
        DATABASE_URL: databaseUrl,
        REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
        SLUICE_KEY_PREFIX: redis.prefix,
        LOG_LEVEL: 'warn',
      },
      ports,
      logDir: join(scratch, 'logs'),
    });
    controlPlane = `http://127.0.0.1:${ports['control-plane']}`;
    dataPlane = `http://127.0.0.1:${ports['data-plane']}`;
    await waitFor(
      `the demo tenant ${seed.tenantId} published and answering`,
      async () => (await check()).status === 200,
      30_000,
      200,
    );
  }, 180_000);

  afterAll(async () => {
    await apps?.stop();
    await postgres?.stop();
    await redis?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    // as root the data lives outside `scratch` (src/embedded.ts)
    if (scratch) await rm(rootFolder(join(scratch, 'pg')), { recursive: true, force: true });
  });

  function check() {
    return fetch(`${dataPlane}/v1/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ policy: 'api', identifier: `user-${Math.random()}` }),
    });
  }

  it('keeps answering /v1/check while the control plane reports its database down', async () => {
    await postgres.stop();
    await waitFor(
      'the control plane to notice',
      async () => (await fetch(`${controlPlane}/readyz`)).status === 503,
      30_000,
      200,
    );
    for (let i = 0; i < 5; i += 1) {
      const answer = await check();
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ allowed: true, reason: 'allowed' });
    }
  });
});
