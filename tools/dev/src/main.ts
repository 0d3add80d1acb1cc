import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readApiKey, readTenant } from '@sluice/policy';
import { generateSigningSecret } from '@sluice/webhooks';
import { Redis } from 'ioredis';
import { portsFrom, startApps } from './apps';
import { dropDatabasesWithPrefix, ensureDatabase, migrate, recreateDatabase } from './database';
import { log, SetupError } from './log';
import { waitFor } from './net';
import { dataDir, repoRoot } from './paths';
import { resolvePostgres, type PostgresServer } from './postgres';
import { resolveRedis, type RedisServer } from './redis';
import { startDemoReceiver } from './demo-receiver';
import { type DemoTraffic, startDemoTraffic } from './demo-traffic';
import { REPORT_DIR_ENV } from './test-report/reporter.mjs';
import { formatSummary, parseNxOutput, readRunRecords } from './test-report/summary';
import {
  DEMO_WEBHOOK_ENDPOINT,
  localSecret,
  seedDemo,
  seedDemoOperator,
  seedDemoTenantAdmin,
} from './seed';

const DEMO_DATABASE = 'sluice';
/**
 * The migrated template every test database is cloned from (libs/testing names each clone
 * `<template>_<random>`). Named after this checkout, so two checkouts sharing one server never drop
 * each other's databases.
 */
const TEST_TEMPLATE_DATABASE = `sluice_test_${createHash('sha256').update(repoRoot).digest('hex').slice(0, 8)}`;

interface Services {
  postgres: PostgresServer;
  redis: RedisServer;
  stop(): Promise<void>;
}

async function prepareServices(
  env: NodeJS.ProcessEnv,
  purpose: 'demo' | 'test',
): Promise<Services> {
  const postgres = await resolvePostgres({
    env,
    dataDir: join(dataDir, purpose === 'demo' ? 'postgres' : 'postgres-test'),
  });
  log.info(`PostgreSQL: ${describePostgres(postgres)}`);
  let redis: RedisServer;
  try {
    redis = await resolveRedis({
      env,
      dataDir: join(dataDir, purpose === 'demo' ? 'redis' : 'redis-test'),
      persist: purpose === 'demo',
    });
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  log.info(`Redis: ${redis.url} (${redis.source})`);
  return {
    postgres,
    redis,
    stop: async () => {
      await redis.stop();
      await postgres.stop();
    },
  };
}

function describePostgres(server: PostgresServer): string {
  const url = new URL(server.maintenanceUrl);
  const where = `${url.hostname}:${url.port || 5432}`;
  return {
    env: `DATABASE_URL (${where})`,
    local: `${where}`,
    embedded: `embedded on ${where}, data in ${server.dataDir}`,
  }[server.source];
}

function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs a command whose output goes both to this process's and to `logFile`. */
function runTeed(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const file = createWriteStream(logFile);
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (process.stdout.write(chunk), file.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => (process.stderr.write(chunk), file.write(chunk)));
    child.once('error', reject);
    child.once('close', (code, signal) => file.end(() => resolve(code ?? (signal ? 1 : 0))));
  });
}

const nxEnv = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
const nx = join(repoRoot, 'node_modules/.bin/nx');

/** `npm start`: build, prepare services, migrate, seed, start the four apps, print their URLs. */
async function start(args: string[]): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...nxEnv };
  if (!args.includes('--no-build')) {
    log.info('building (nx run-many -t build)');
    const built = await runCommand(nx, ['run-many', '-t', 'build', '--output-style=static'], env);
    if (built !== 0) return built;
  }
  const services = await prepareServices(env, 'demo');
  let stopReceiver = async () => {};
  try {
    // DATABASE_URL names the demo's database itself; on a found or embedded server we create one.
    const databaseUrl =
      services.postgres.source === 'env'
        ? services.postgres.maintenanceUrl
        : services.postgres.databaseUrl(DEMO_DATABASE);
    if (services.postgres.source !== 'env') {
      await ensureDatabase(services.postgres.maintenanceUrl, DEMO_DATABASE);
    }
    log.info('applying migrations');
    await migrate(databaseUrl);
    const prefix = env['SLUICE_KEY_PREFIX'] ?? 'sluice:';
    const logDir = join(dataDir, 'logs');
    await mkdir(logDir, { recursive: true });
    // webhook signing secrets are encrypted with it: kept with the demo's data unless given
    const secretsKey =
      env['SLUICE_SECRETS_KEY'] ||
      (await localSecret(join(dataDir, 'secrets-key'), () => randomBytes(32).toString('base64')));
    const receiver = await startDemoReceiver({
      port: Number(env['SLUICE_DEMO_RECEIVER_PORT'] ?? 4300),
      secret: await localSecret(join(dataDir, 'demo-webhook-secret'), generateSigningSecret),
      logFile: join(logDir, 'demo-receiver.log'),
    });
    stopReceiver = () => receiver.close();
    const seed = await seedDemo({
      databaseUrl,
      apiKeyFile: join(dataDir, 'demo-api-key'),
      webhook: {
        url: receiver.url,
        failingUrl: receiver.failingUrl,
        secretsKey: Buffer.from(secretsKey, 'base64'),
        secretFile: join(dataDir, 'demo-webhook-secret'),
      },
    });
    log.info(`demo seeded: tenant "${seed.tenantSlug}", plans ${seed.planSlugs.join(', ')}`);

    const operator = await seedDemoOperator({
      env,
      databaseUrl,
      passwordFile: join(dataDir, 'demo-operator-password'),
    });
    const tenantAdmin = await seedDemoTenantAdmin({
      env,
      databaseUrl,
      passwordFile: join(dataDir, 'demo-admin-password'),
    });

    const appEnv = {
      ...env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: services.redis.url,
      // npm start serves plain http on loopback: a Secure cookie would never be sent back
      CONTROL_PLANE_COOKIE_SECURE: env['CONTROL_PLANE_COOKIE_SECURE'] ?? 'false',
      // the dashboard's server, on loopback, forwards the browser's address for the login throttle
      CONTROL_PLANE_TRUSTED_PROXIES: env['CONTROL_PLANE_TRUSTED_PROXIES'] ?? 'loopback',
      SLUICE_SECRETS_KEY: secretsKey,
      // the demo receiver is on loopback, which the SSRF guard refuses unless allowed
      SLUICE_WEBHOOK_ALLOWED_CIDRS: env['SLUICE_WEBHOOK_ALLOWED_CIDRS'] ?? '127.0.0.1/32',
    };
    const ports = portsFrom(env);
    const group = await startApps({ env: appEnv, ports, logDir });
    const redis = new Redis(services.redis.url, { maxRetriesPerRequest: 1 });
    try {
      // the control plane publishes the seeded tenant and key; the curl below needs both
      await waitFor(
        'the control plane to publish the demo tenant to Redis',
        async () =>
          (await readTenant(redis, prefix, seed.tenantId)) !== undefined &&
          (await readApiKey(redis, prefix, seed.keyHash)) !== undefined,
        30_000,
        200,
      );
    } catch (error) {
      await group.stop();
      throw error;
    } finally {
      redis.disconnect();
    }
    log.info('Sluice is running:');
    for (const app of group.apps) log.info(`  ${app.name.padEnd(14)} ${app.url}  (pid ${app.pid})`);
    log.info(`demo tenant: ${seed.tenantSlug} (id ${seed.tenantId})`);
    log.info(`demo API key: ${seed.apiKey}`);
    log.info(
      `demo webhook endpoint "${DEMO_WEBHOOK_ENDPOINT}" → ${receiver.url} (deliveries in ${join(logDir, 'demo-receiver.log')})`,
    );
    log.info(`demo operator: ${operator.email} / ${operator.password}`);
    log.info(`demo tenant admin: ${tenantAdmin.email} / ${tenantAdmin.password}`);
    log.info(
      `sign in to the dashboard at ${group.apps.find((app) => app.name === 'dashboard')?.url ?? ''} with either`,
    );
    log.info('try it (the "api" policy allows a burst of 5, then 1 per second):');
    log.info(
      `  curl -i -X POST http://127.0.0.1:${ports['data-plane']}/v1/check -H 'Authorization: Bearer ${seed.apiKey}' -H 'Content-Type: application/json' -d '{"policy":"api","identifier":"user-1"}'`,
    );
    let traffic: DemoTraffic | undefined;
    if (args.includes('--no-traffic')) {
      log.info('demo traffic: off (--no-traffic)');
    } else {
      traffic = startDemoTraffic({
        dataPlaneUrl: `http://127.0.0.1:${ports['data-plane']}`,
        apiKey: seed.apiKey,
        onError: (what, error) =>
          log.warn(`demo traffic: ${what} failed (${String(error)}); it goes on`),
      });
      log.info(
        'demo traffic: on (steady users, two abusive identifiers, LLM calls settled at their usage, webhooks to the receiver and to a failing endpoint); `npm start -- --no-traffic` for none',
      );
    }
    log.info(`logs in ${logDir}; press Ctrl-C to stop`);

    const signalled = new Promise<string>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
      // npm does not pass a SIGTERM sent to it on to this process: when the parent goes away
      // (re-parented), stop too rather than leave the apps running unsupervised.
      const parent = process.ppid;
      setInterval(() => process.ppid !== parent && resolve('parent exit'), 1000).unref();
    });
    const outcome = await Promise.race([signalled, group.exited]);
    if (typeof outcome !== 'string') {
      log.error(`${outcome.name} exited with code ${outcome.code}; stopping the others`);
    }
    log.info('stopping');
    await traffic?.stop();
    await group.stop();
    return typeof outcome === 'string' ? 0 : 1;
  } finally {
    await stopReceiver();
    await services.stop();
  }
}

/**
 * `npm test`: prepare services and a migrated template database, then run every Nx check; end with
 * a summary of what failed, what needed a retry and the slowest test files (docs/testing.md).
 */
async function test(args: string[]): Promise<number> {
  const startedAt = Date.now();
  const reportDir = join(dataDir, 'test-reports');
  await rm(reportDir, { recursive: true, force: true });
  await mkdir(reportDir, { recursive: true });
  const nxLog = join(reportDir, 'nx.log');
  const setupFailures: string[] = [];
  try {
    return await runChecks(args, reportDir, nxLog, setupFailures);
  } catch (error) {
    setupFailures.push(`before the tests: ${(error as Error).message.split('\n')[0] ?? ''}`);
    throw error;
  } finally {
    const summary = formatSummary({
      records: readRunRecords(reportDir),
      nx: parseNxOutput(existsSync(nxLog) ? await readFile(nxLog, 'utf8') : ''),
      setupFailures,
      wallMs: Date.now() - startedAt,
    });
    process.stdout.write(`${summary.join('\n')}\n`);
  }
}

async function runChecks(
  args: string[],
  reportDir: string,
  nxLog: string,
  setupFailures: string[],
): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...nxEnv };
  const prettierLog = join(reportDir, 'prettier.log');
  const formatted = await runTeed(
    join(repoRoot, 'node_modules/.bin/prettier'),
    ['--check', '--log-level=warn', '.'],
    env,
    prettierLog,
  );
  if (formatted !== 0) {
    const files = (await readFile(prettierLog, 'utf8')).match(/^\[warn\] (?!Code style)\S.*$/gm);
    setupFailures.push(
      `prettier --check: ${files?.map((line) => line.slice(7)).join(', ') ?? 'see above'} (fix with \`npm run format\`)`,
    );
    log.error('prettier found unformatted files (fix with `npm run format`)');
    return formatted;
  }
  const services = await prepareServices(env, 'test');
  try {
    const { postgres } = services;
    const dropped = await dropDatabasesWithPrefix(
      postgres.maintenanceUrl,
      `${TEST_TEMPLATE_DATABASE}_`,
    );
    if (dropped > 0) log.info(`dropped ${dropped} databases left by earlier runs`);
    await recreateDatabase(postgres.maintenanceUrl, TEST_TEMPLATE_DATABASE);
    const templateUrl = postgres.databaseUrl(TEST_TEMPLATE_DATABASE);
    log.info('applying migrations to the test template database');
    await migrate(templateUrl);
    const testEnv = {
      ...env,
      REDIS_URL: services.redis.url,
      SLUICE_TEST_DATABASE_URL: templateUrl,
      SLUICE_TEST_ADMIN_URL: postgres.maintenanceUrl,
      [REPORT_DIR_ENV]: reportDir,
    };
    // `npm test -- -t test --projects=…` chooses its own targets; every check runs otherwise
    const chosen = args.some((arg) => arg === '-t' || arg.startsWith('--targets'));
    const targets = chosen ? [] : ['-t', 'lint', 'typecheck', 'build', 'test', 'e2e'];
    return await runTeed(
      nx,
      ['run-many', ...targets, '--output-style=static', ...args],
      testEnv,
      nxLog,
    );
  } finally {
    await services.stop();
  }
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  // A local .env (see .env.example) applies to both commands; real environment variables win.
  const dotenv = join(repoRoot, '.env');
  if (existsSync(dotenv)) {
    const before = { ...process.env };
    process.loadEnvFile(dotenv);
    Object.assign(process.env, before);
  }
  switch (command) {
    case 'start':
      return start(args);
    case 'test':
      return test(args);
    default:
      log.error(`unknown command "${command ?? ''}": use start or test`);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log.error(
      error instanceof SetupError ? error.message : String((error as Error).stack ?? error),
    );
    process.exit(1);
  },
);
