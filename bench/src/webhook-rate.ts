/**
 * Measures the webhook dispatcher's output rate over a long run (a script that prints figures,
 * not a test): one endpoint at `--rate` deliveries per second, its FIFO kept full by a producer,
 * the built worker delivering to a local receiver that timestamps every arrival. Prints the
 * measured rate and its error against the leak rate, in %.
 *
 *   npx nx run @sluice/worker:build
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/sluice \
 *     node_modules/.bin/tsx --conditions=@sluice/source bench/src/webhook-rate.ts [--rate 20] [--duration 60]
 *
 * DATABASE_URL names a migrated database (npm start's); the run adds a tenant, a plan and an
 * endpoint to it and deletes them at the end. REDIS_URL defaults to 127.0.0.1:6379; every key
 * goes under a random prefix, deleted at the end.
 */
import { createPrismaClient, newId } from '@sluice/db';
import {
  admitWebhookEvent,
  createWebhookQueue,
  encryptSecret,
  generateSigningSecret,
  publishWebhookEndpoints,
  readWebhookEndpoint,
} from '@sluice/webhooks';
import { Redis } from 'ioredis';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const WORKER_MAIN = path.resolve(__dirname, '../../apps/worker/dist/main.js');

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '20' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
  },
});
const rate = Number(values.rate);
const durationS = Number(values.duration);
const warmupS = Number(values.warmup);
if (!(rate >= 0.01 && rate <= 1000) || !(durationS >= 5) || !(warmupS >= 0)) {
  throw new Error('--rate must be 0.01..1000, --duration at least 5 s, --warmup at least 0');
}
const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) throw new Error('DATABASE_URL must name a migrated database');
if (!existsSync(WORKER_MAIN)) throw new Error(`build the worker first: ${WORKER_MAIN} is missing`);
const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

/** Least-squares slope of arrival time (ms) against index, as deliveries per second. */
function fittedRate(times: readonly number[]): number {
  const n = times.length;
  const mx = (n - 1) / 2;
  const my = times.reduce((sum, t) => sum + t, 0) / n;
  let num = 0;
  let den = 0;
  times.forEach((t, i) => {
    num += (i - mx) * (t - my);
    den += (i - mx) ** 2;
  });
  return 1000 / (num / den);
}

async function main(): Promise<void> {
  const prefix = `bench-wh:${randomBytes(4).toString('hex')}:`;
  const secretsKey = randomBytes(32);
  const redis = new Redis(redisUrl);
  const prisma = createPrismaClient(databaseUrl!, { maxConnections: 2 });
  const queueConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = createWebhookQueue(queueConnection, prefix);

  const arrivals: number[] = [];
  const receiver = createHttpServer((request, response) => {
    arrivals.push(performance.timeOrigin + performance.now());
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as { port: number }).port;

  const tenantId = newId('tenant');
  const planId = newId('plan');
  const endpointId = newId('webhookEndpoint');
  await prisma.plan.create({ data: { id: planId, slug: `bench-${planId}`, name: 'bench' } });
  await prisma.tenant.create({
    data: { id: tenantId, slug: `bench-${tenantId.slice(4)}`, name: 'bench', planId },
  });
  const row = await prisma.webhookEndpoint.create({
    data: {
      id: endpointId,
      tenantId,
      name: 'bench',
      url: `http://127.0.0.1:${receiverPort}/hooks`,
      secretCiphertext: encryptSecret(secretsKey, generateSigningSecret(), {
        tenantId,
        endpointId,
      }),
      leakRatePerSec: rate,
      // ten seconds of events: the FIFO never runs dry while the producer tops it up
      queueCapacity: Math.max(10, Math.ceil(rate * 10)),
      maxAttempts: 3,
    },
  });
  await publishWebhookEndpoints(redis, prefix, tenantId, [row]);
  const endpoint = (await readWebhookEndpoint(redis, prefix, tenantId, endpointId))!;

  const port = await freePort();
  const worker = spawn(process.execPath, [WORKER_MAIN], {
    env: {
      PATH: process.env['PATH'],
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      WORKER_PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SLUICE_KEY_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      SLUICE_SECRETS_KEY: secretsKey.toString('base64'),
      SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let producing = true;
  try {
    for (let ready = false; !ready; await sleep(200)) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (worker.exitCode !== null) throw new Error('the worker exited at start');
    }
    const produce = (async () => {
      while (producing) {
        const result = await admitWebhookEvent(redis, queue, prefix, tenantId, endpoint, {
          type: 'bench.tick',
          payload: { at: Date.now() },
        });
        if (result.status === 'queue-full') await sleep(result.retryAfterMs);
        else if (result.status !== 'admitted') throw new Error(`not admitted: ${result.status}`);
      }
    })();
    const start = performance.timeOrigin + performance.now();
    console.log(
      `rate ${rate}/s: warming up ${warmupS} s, then measuring ${durationS} s against a local receiver`,
    );
    await sleep((warmupS + durationS) * 1000 + 1000);
    producing = false;
    await produce;
    const from = start + warmupS * 1000;
    const window = arrivals.filter((t) => t >= from && t < from + durationS * 1000);
    if (window.length < 2) throw new Error(`only ${window.length} arrivals in the window`);
    const spanRate = (window.length - 1) / ((window.at(-1)! - window[0]!) / 1000);
    const slopeRate = fittedRate(window);
    const pct = (measured: number) => (((measured - rate) / rate) * 100).toFixed(3);
    console.log(`deliveries in the window: ${window.length}`);
    console.log(`rate (first to last arrival): ${spanRate.toFixed(4)}/s, error ${pct(spanRate)} %`);
    console.log(
      `rate (least-squares fit):     ${slopeRate.toFixed(4)}/s, error ${pct(slopeRate)} %`,
    );
  } finally {
    producing = false;
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
    receiver.closeAllConnections();
    receiver.close();
    await prisma.tenant.delete({ where: { id: tenantId } });
    await prisma.plan.delete({ where: { id: planId } });
    await prisma.$disconnect();
    await queue.close();
    queueConnection.disconnect();
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
