import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  createTestRedis,
  freePort,
  SmtpSink,
  type TestDatabase,
  type TestRedis,
} from '@sluice/testing';
import { startApps, type AppGroup } from '../../src/apps';
import { seedDemo, seedDemoOperator, seedDemoTenantAdmin, type DemoUser } from '../../src/seed';

/** The real stack the console drives: control plane, data plane and dashboard, as built. */
export interface ConsoleStack {
  dashboard: string;
  controlPlane: string;
  dataPlane: string;
  operator: DemoUser;
  tenantAdmin: DemoUser;
  /** The seeded demo tenant and its service key. */
  tenantId: string;
  apiKey: string;
  /** Mail the control plane sends (invitations, password resets). */
  smtp: SmtpSink;
  stop(): Promise<void>;
}

/** What a spec needs beyond the console's three apps. */
export interface ConsoleStackOptions {
  /**
   * The worker too, delivering webhooks to receivers on loopback (127.0.0.1/32 allowed for this
   * stack only: the others refuse loopback destinations, as a deployment does).
   */
  webhooks?: boolean;
  /** Every allowed check in the decision log, not 1 in 100: a log spec sees allows for sure. */
  logEveryAllow?: boolean;
}

/**
 * Starts the built apps (Nx builds them before the e2e target) on a database cloned from the
 * migrated template and a private Redis prefix, seeded as `npm start` seeds the demo: its plans,
 * tenant and key, the demo operator and the demo tenant's admin.
 */
export async function startConsoleStack(options: ConsoleStackOptions = {}): Promise<ConsoleStack> {
  const scratch = await mkdtemp(join(tmpdir(), 'sluice-console-'));
  let db: TestDatabase | undefined;
  let redis: TestRedis | undefined;
  let smtp: SmtpSink | undefined;
  let apps: AppGroup | undefined;
  // every step runs even when one before it failed (Redis gone, say): nothing is left behind
  const stop = async () => {
    const failures: unknown[] = [];
    for (const step of [
      () => apps?.stop(),
      () => smtp?.close(),
      () => redis?.cleanup(),
      () => db?.drop(),
      () => rm(scratch, { recursive: true, force: true }),
    ]) {
      await Promise.resolve()
        .then(step)
        .catch((error: unknown) => failures.push(error));
    }
    if (failures.length > 0) throw failures[0];
  };
  try {
    db = await createTestDatabase();
    redis = createTestRedis('console');
    smtp = await SmtpSink.start();
    const seed = await seedDemo({ databaseUrl: db.url, apiKeyFile: join(scratch, 'api-key') });
    const users = { env: process.env, databaseUrl: db.url };
    const operator = await seedDemoOperator({ ...users, passwordFile: join(scratch, 'operator') });
    const tenantAdmin = await seedDemoTenantAdmin({
      ...users,
      passwordFile: join(scratch, 'admin'),
    });
    const ports = {
      'control-plane': await freePort(),
      'data-plane': await freePort(),
      dashboard: await freePort(),
      ...(options.webhooks && { worker: await freePort() }),
    };
    const dashboard = `http://127.0.0.1:${ports.dashboard}`;
    apps = await startApps({
      env: {
        PATH: process.env['PATH'],
        DATABASE_URL: db.url,
        REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
        SLUICE_KEY_PREFIX: redis.prefix,
        LOG_LEVEL: 'warn',
        CONTROL_PLANE_COOKIE_SECURE: 'false',
        CONTROL_PLANE_TRUSTED_PROXIES: 'loopback',
        CONTROL_PLANE_LINK_BASE_URL: dashboard,
        CONTROL_PLANE_RELAY_INTERVAL_MS: '200',
        SMTP_URL: smtp.url,
        // encrypts webhook signing secrets: without it the control plane makes no endpoint
        SLUICE_SECRETS_KEY: randomBytes(32).toString('base64'),
        ...(options.webhooks && { SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' }),
        ...(options.logEveryAllow && { DATA_PLANE_DECISION_LOG_ALLOW_SAMPLE_RATE: '1' }),
      },
      ports,
      logDir: join(scratch, 'logs'),
    });
    const dataPlane = `http://127.0.0.1:${ports['data-plane']}`;
    const apiKey = (await readFile(join(scratch, 'api-key'), 'utf8')).trim();
    await untilPublished(dataPlane, apiKey);
    return {
      dashboard,
      controlPlane: `http://127.0.0.1:${ports['control-plane']}`,
      dataPlane,
      operator,
      tenantAdmin,
      tenantId: seed.tenantId,
      apiKey,
      smtp,
      stop,
    };
  } catch (error) {
    // the cause of the failed start, not a cleanup's
    await stop().catch(() => undefined);
    throw error;
  }
}

/**
 * Waits until the data plane knows the seeded key and its tenant, which the control plane's relay
 * publishes a moment after it starts: until then a spec's first checks are refused as unknown (and
 * the refusal is cached for a second), so on a busy machine a spec's setup could lose them all. A
 * dry run: nothing is counted or logged.
 */
async function untilPublished(dataPlane: string, apiKey: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${dataPlane}/v1/check`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ policy: 'api', identifier: 'stack-ready', dryRun: true }),
    });
    await response.arrayBuffer();
    if (response.ok) return;
    if (Date.now() > deadline) {
      throw new Error(`the data plane still answers ${response.status} to the seeded key`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
