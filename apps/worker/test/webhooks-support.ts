import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import { createPrismaClient, newId, type PrismaClient, type WebhookEndpoint } from '@sluice/db';
import {
  createTestDatabase,
  createTestRedis,
  testRedisUrl,
  type TestDatabase,
  type TestRedis,
} from '@sluice/testing';
import {
  admitWebhookEvent,
  createWebhookQueue,
  encryptSecret,
  generateSigningSecret,
  publishWebhookEndpoints,
  readWebhookEndpoint,
  type DeliveryJob,
  type PublishedEndpoint,
} from '@sluice/webhooks';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Worker } from 'node:worker_threads';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';

export const SECRETS_KEY = randomBytes(32);

/** One request a receiver got. */
export interface Arrival {
  /** Ms epoch (sub-ms precision) when its headers arrived, as the receiver's own thread saw it. */
  at: number;
  eventId: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Answer this long after the request arrived (a slow receiver). */
  delayMs?: number;
  /** After the headers, one byte of body this often, never ending (a trickling receiver). */
  trickleMs?: number;
  /** A body this long (in `content-length`), written as fast as the sender reads it. */
  bodyBytes?: number;
}

/** How one answer ended, as the receiver saw it. */
export interface AnswerEnd {
  eventId: string;
  /** Body bytes the receiver handed to its socket. */
  bodyBytes: number;
  /** False when the connection closed before the body was all written. */
  finished: boolean;
}

/** The receiver's connections. */
export interface Connections {
  /** Accepted so far. */
  opened: number;
  /** Open now: accepted, and neither ended nor reset by the sender. */
  open: number;
  /** Most open at once. */
  maxOpen: number;
}

/** A local HTTP receiver on loopback that records every request and its arrival time. */
export interface Receiver {
  readonly url: string;
  /** What arrived so far, in arrival order. */
  readonly arrivals: Arrival[];
  /** Most requests it held at once (answered or given up by the sender). */
  readonly maxInFlight: number;
  readonly connections: Connections;
  /** Answers whose exchange is over, in the order they ended. */
  readonly ends: AnswerEnd[];
  /**
   * Answer request i with `answers[i]`, the last one for every later request; resolves once the
   * receiver's thread has them, so that a request sent afterwards gets them.
   */
  answerWith(answers: readonly Answer[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The receiver runs in a worker thread: its own event loop and heap, so a pause of the test's
 * thread (which also runs the worker app: GC, Nest, Prisma) cannot bunch up its timestamps.
 */
const RECEIVER_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
let answers = workerData.answers;
let count = 0;
let inFlight = 0;
let maxInFlight = 0;
const sockets = new Set();
const connections = { opened: 0, open: 0, maxOpen: 0 };
const CHUNK = Buffer.alloc(65536, 46);
// writes the body a chunk at a time, each when the last one has left (back-pressure)
function pump(response, bytes, sent) {
  let left = bytes;
  const next = () => {
    while (left > 0 && !response.destroyed) {
      const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= piece.length;
      sent(piece.length);
      if (left === 0) response.end(piece);
      else if (!response.write(piece)) return void response.once('drain', next);
    }
  };
  next();
}
function answer(response, how, sent) {
  if (how.trickleMs) {
    response.writeHead(how.status, how.headers);
    response.flushHeaders();
    const timer = setInterval(() => {
      sent(1);
      response.write('.');
    }, how.trickleMs);
    response.on('close', () => clearInterval(timer));
  } else if (how.bodyBytes) {
    response.writeHead(how.status, { ...how.headers, 'content-length': how.bodyBytes });
    pump(response, how.bodyBytes, sent);
  } else {
    sent(2);
    response.writeHead(how.status, how.headers).end('ok');
  }
}
const server = http.createServer((request, response) => {
  const at = performance.timeOrigin + performance.now();
  const index = count++;
  const eventId = String(request.headers['sluice-event-id']);
  let bodyBytes = 0;
  inFlight += 1;
  maxInFlight = Math.max(maxInFlight, inFlight);
  response.on('close', () => {
    inFlight -= 1;
    parentPort.postMessage({ kind: 'end', end: { eventId, bodyBytes, finished: response.writableFinished } });
  });
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    parentPort.postMessage({ kind: 'arrival', maxInFlight,
      arrival: { at, eventId, headers: request.headers, body } });
    const next = answers[Math.min(index, answers.length - 1)];
    setTimeout(() => {
      if (!response.destroyed) answer(response, next, (bytes) => (bodyBytes += bytes));
    }, next.delayMs || 0);
  });
});
server.on('connection', (socket) => {
  sockets.add(socket);
  connections.opened += 1;
  connections.open += 1;
  connections.maxOpen = Math.max(connections.maxOpen, connections.open);
  parentPort.postMessage({ kind: 'connections', connections });
  // The sender has let go once its end or reset arrives; 'close' comes a loop turn later, when
  // the sender may already have opened the next connection in the slot it freed.
  let held = true;
  const released = () => {
    if (!held) return;
    held = false;
    connections.open -= 1;
    parentPort.postMessage({ kind: 'connections', connections });
  };
  socket.on('end', released);
  socket.on('error', released);
  socket.on('close', () => {
    sockets.delete(socket);
    released();
  });
});
parentPort.on('message', (message) => {
  if (message.kind === 'answers') {
    answers = message.answers;
    parentPort.postMessage({ kind: 'answers-set' });
  }
  if (message.kind === 'close') {
    for (const socket of sockets) socket.destroy();
    server.close(() => parentPort.postMessage({ kind: 'closed' }));
  }
});
server.listen(0, workerData.host, () =>
  parentPort.postMessage({ kind: 'listening', port: server.address().port }));
`;

type ReceiverMessage =
  | { kind: 'listening'; port: number }
  | { kind: 'arrival'; maxInFlight: number; arrival: Arrival }
  | { kind: 'end'; end: AnswerEnd }
  | { kind: 'connections'; connections: Connections }
  | { kind: 'answers-set' }
  | { kind: 'closed' };

export async function startReceiver(
  answers: readonly Answer[] = [{ status: 200 }],
  host = '127.0.0.1',
): Promise<Receiver> {
  const thread = new Worker(RECEIVER_THREAD, { eval: true, workerData: { answers, host } });
  const arrivals: Arrival[] = [];
  const ends: AnswerEnd[] = [];
  let maxInFlight = 0;
  let connections: Connections = { opened: 0, open: 0, maxOpen: 0 };
  const port = await new Promise<number>((resolve, reject) => {
    thread.once('error', reject);
    thread.on('message', (message: ReceiverMessage) => {
      if (message.kind === 'listening') resolve(message.port);
      if (message.kind === 'arrival') {
        arrivals.push(message.arrival);
        maxInFlight = Math.max(maxInFlight, message.maxInFlight);
      }
      if (message.kind === 'end') ends.push(message.end);
      if (message.kind === 'connections') connections = message.connections;
    });
  });
  return {
    url: `http://${host}:${port}/hooks`,
    get arrivals() {
      // reported when each body has been read: concurrent requests may report out of order
      return [...arrivals].sort((a, b) => a.at - b.at);
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get connections() {
      return { ...connections };
    },
    get ends() {
      return [...ends];
    },
    async answerWith(next) {
      const set = new Promise<void>((resolve) => {
        const onMessage = (message: ReceiverMessage) => {
          if (message.kind !== 'answers-set') return;
          thread.off('message', onMessage);
          resolve();
        };
        thread.on('message', onMessage);
      });
      thread.postMessage({ kind: 'answers', answers: next });
      await set;
    },
    async close() {
      const closed = new Promise((resolve) =>
        thread.on('message', (message: ReceiverMessage) => {
          if (message.kind === 'closed') resolve(undefined);
        }),
      );
      thread.postMessage({ kind: 'close' });
      await closed;
      await thread.terminate();
    },
  };
}

/** Polls `condition` until it holds or `timeoutMs` passes (then throws, saying what). */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The worker's environment for tests: loopback allowed, short timeouts and backoff. */
export function workerEnv(
  database: TestDatabase,
  redis: TestRedis,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    SLUICE_KEY_PREFIX: redis.prefix,
    LOG_LEVEL: 'silent',
    SLUICE_SECRETS_KEY: SECRETS_KEY.toString('base64'),
    // the receivers listen on 127.0.0.1: allowed here, and only here
    SLUICE_WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
    WORKER_WEBHOOK_TIMEOUT_MS: '1000',
    WORKER_WEBHOOK_BACKOFF_BASE_MS: '300',
    WORKER_WEBHOOK_BACKOFF_MAX_MS: '5000',
    WORKER_WEBHOOK_FAILURE_THRESHOLD: '100',
    ...overrides,
  };
}

/** Real Redis and PostgreSQL for one test, the queue handle, and endpoints as the relay publishes them. */
export interface WebhookWorld {
  readonly database: TestDatabase;
  readonly redis: TestRedis;
  readonly prisma: PrismaClient;
  readonly queue: Queue<DeliveryJob>;
  /** The in-process worker, when started. */
  app: NestFastifyApplication | undefined;
  startWorker(overrides?: Record<string, string>): Promise<NestFastifyApplication>;
  createEndpoint(
    url: string,
    over?: Partial<WebhookEndpoint>,
  ): Promise<{ endpoint: PublishedEndpoint; secret: string; row: WebhookEndpoint }>;
  /** Admits events through the leaky bucket, as intake does; their event ids in order. */
  enqueue(endpoint: PublishedEndpoint, count: number, type?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function webhookWorld(label: string): Promise<WebhookWorld> {
  const database = await createTestDatabase();
  const redis = createTestRedis(label);
  const prisma = createPrismaClient(database.url, { maxConnections: 2 });
  const queue = createWebhookQueue(redis.connect({ maxRetriesPerRequest: null }), redis.prefix);
  const tenantId = newId('tenant');
  const plan = await prisma.plan.create({
    data: { id: newId('plan'), slug: `plan-${tenantId}`, name: 'Plan' },
  });
  await prisma.tenant.create({
    data: { id: tenantId, slug: `t-${tenantId.slice(4)}`, name: 'Tenant', planId: plan.id },
  });
  let endpoints = 0;
  const world: WebhookWorld = {
    database,
    redis,
    prisma,
    queue,
    app: undefined,
    async startWorker(overrides = {}) {
      const app = await createApp(parseEnv(envSchema, workerEnv(database, redis, overrides)));
      await app.listen(0, '127.0.0.1');
      world.app = app;
      return app;
    },
    async createEndpoint(url, over = {}) {
      const id = newId('webhookEndpoint');
      const secret = generateSigningSecret();
      const row = await prisma.webhookEndpoint.create({
        data: {
          id,
          tenantId,
          name: `hooks-${(endpoints += 1)}`,
          url,
          secretCiphertext: encryptSecret(SECRETS_KEY, secret, { tenantId, endpointId: id }),
          leakRatePerSec: 5,
          queueCapacity: 100,
          maxAttempts: 3,
          ...over,
        },
      });
      // what the outbox relay does with the tenant's rows
      const rows = await prisma.webhookEndpoint.findMany({ where: { tenantId } });
      await publishWebhookEndpoints(redis.redis, redis.prefix, tenantId, rows);
      const endpoint = await readWebhookEndpoint(redis.redis, redis.prefix, tenantId, id);
      if (!endpoint) throw new Error('endpoint not published');
      return { endpoint, secret, row };
    },
    async enqueue(endpoint, count, type = 'test.event') {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const result = await admitWebhookEvent(
          redis.redis,
          queue,
          redis.prefix,
          tenantId,
          endpoint,
          {
            type,
            payload: { n: i },
          },
        );
        if (result.status !== 'admitted') throw new Error(`not admitted: ${result.status}`);
        ids.push(result.eventId);
      }
      return ids;
    },
    async close() {
      await world.app?.close();
      await queue.close();
      await prisma.$disconnect();
      await redis.cleanup();
      await database.drop();
    },
  };
  return world;
}

/** Least-squares slope of arrival time against arrival index, as deliveries per second. */
export function fittedRate(arrivals: readonly Arrival[]): number {
  const n = arrivals.length;
  const xs = arrivals.map((_, i) => i);
  const ys = arrivals.map((arrival) => arrival.at);
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i += 1) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  const msPerDelivery = num / den;
  return 1000 / msPerDelivery;
}

/** Gaps between consecutive arrivals (ms). */
export function gaps(arrivals: readonly Arrival[]): number[] {
  return arrivals.slice(1).map((arrival, i) => arrival.at - arrivals[i]!.at);
}

/**
 * Where `arrived` leaves the FIFO order of `sent` by more than `slack` places. The dispatcher
 * sends in FIFO order while its jobs keep pace; a job that stalls (a loaded machine) or waits for
 * one of the endpoint's in-flight slots goes back to BullMQ's delayed set, and later events may
 * pass it meanwhile (docs/worker.md). Each entry names an event and how far it moved; empty: in
 * order within the slack. Every event must arrive exactly once (checked apart).
 */
export function fifoBreaks(
  arrived: readonly string[],
  sent: readonly string[],
  slack: number,
): string[] {
  return arrived.flatMap((id, position) => {
    const moved = Math.abs(position - sent.indexOf(id));
    return moved > slack ? [`${id} moved ${moved} places`] : [];
  });
}
