import { DecisionEngine, engineRedisOptions, type CheckResult } from '@sluice/engine';
import {
  compileTenant,
  generateApiKeySecret,
  publishTenant,
  putApiKey,
  type ApiKeyRecord,
} from '@sluice/policy';
import { verifyWebhookSignature } from '@sluice/sdk';
import { quotaAlertStreamKey, UsageRecorder, type DecisionEvent } from '@sluice/usage';
import { endpointKeys, type PublishedEndpoint } from '@sluice/webhooks';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_GROUP } from '../src/alerts/alert-consumer.service';
import {
  startReceiver,
  until,
  webhookWorld,
  type Arrival,
  type Receiver,
  type WebhookWorld,
} from './webhooks-support';

let world: WebhookWorld;
const receivers: Receiver[] = [];
const stops: (() => Promise<void>)[] = [];

beforeEach(async () => {
  world = await webhookWorld('worker-alerts');
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await world?.close();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

/** The tenant's `api` policy: one fixed window of `limit` per `windowMs`. */
async function publishWindow(tenantId: string, limit: number, windowMs: number): Promise<void> {
  const rules = [{ name: 'window', algorithm: 'fixed_window' as const, limit, windowMs }];
  const policies = [{ id: 'pol_api', name: 'api', redisTimeoutMs: 1000, rules }];
  await publishTenant(
    world.redis.redis,
    world.redis.prefix,
    compileTenant({ tenantId, slug: 'acme', status: 'active', policies }),
  );
}

interface DataPlane {
  check(identifier: string, cost: number): Promise<CheckResult>;
  reset(identifier: string): Promise<void>;
  flush(): Promise<void>;
  readonly recorder: UsageRecorder;
}

/** What a data plane runs for /v1/check: the engine and the usage recorder, connections of its own. */
async function dataPlane(tenantId: string): Promise<DataPlane> {
  const redis = world.redis.connect(engineRedisOptions);
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  const recorder = new UsageRecorder({
    redis: world.redis.connect({ enableOfflineQueue: false }),
    prefix: world.redis.prefix,
  });
  const engine = new DecisionEngine({
    redis,
    subscriber: world.redis.connect(),
    prefix: world.redis.prefix,
    recorder,
  });
  await engine.start();
  stops.push(() => engine.stop());
  const secret = generateApiKeySecret();
  const record: ApiKeyRecord = {
    id: `key_${Math.random().toString(36).slice(2, 10)}`,
    tenantId,
    policies: null,
    scopes: ['check', 'admin'],
  };
  await putApiKey(world.redis.redis, world.redis.prefix, secret, record);
  return {
    recorder,
    async check(identifier, cost) {
      const key = await engine.authenticate(secret);
      const result = await engine.check({ key, policy: 'api', identifier, cost });
      if (!result.allowed || result.reason !== 'allowed') {
        throw new Error(`check not allowed: ${JSON.stringify(result)}`);
      }
      return result;
    },
    async reset(identifier) {
      const key = await engine.authenticate(secret);
      await engine.reset({ key, policy: 'api', identifier });
    },
    flush: () => recorder.flush(),
  };
}

async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Waits (on the Redis clock, which the windows follow) until the window has `needMs` left. */
async function windowWithRoom(windowMs: number, needMs: number): Promise<void> {
  for (;;) {
    const left = windowMs - ((await redisNow(world.redis.redis)) % windowMs);
    if (left >= needMs) return;
    await new Promise((resolve) => setTimeout(resolve, left + 5));
  }
}

/** Every alert in the stream read and acknowledged, and the endpoint's queue empty. */
async function settled(endpoints: PublishedEndpoint[]): Promise<boolean> {
  const { redis, prefix } = world.redis;
  let groups: unknown[];
  try {
    groups = (await redis.xinfo('GROUPS', quotaAlertStreamKey(prefix))) as unknown[];
  } catch {
    return false; // no stream yet
  }
  const group = groups
    .map((fields) => fieldMap(fields as unknown[]))
    .find((fields) => fields.get('name') === ALERT_GROUP);
  if (!group || group.get('pending') !== 0 || group.get('lag') !== 0) return false;
  for (const endpoint of endpoints) {
    const { pending } = endpointKeys(prefix, endpoint.tenantId, endpoint.id);
    if ((await redis.zcard(pending)) > 0) return false;
  }
  return true;
}

function fieldMap(flat: unknown[]): Map<unknown, unknown> {
  const map = new Map<unknown, unknown>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i], flat[i + 1]);
  return map;
}

interface ThresholdEvent {
  id: string;
  type: string;
  data: {
    tenantId: string;
    policy: string;
    rule: string;
    identifier: string;
    threshold: number;
    limit: number;
    used: number;
    windowStart: string;
    windowEnd: string;
    at: string;
  };
}

/** The events that arrived, checked signed with the endpoint's secret, by window then threshold. */
function thresholdEvents(arrivals: readonly Arrival[], secret: string): ThresholdEvent[] {
  return arrivals
    .map((arrival) => {
      expect(
        verifyWebhookSignature({ secret, headers: arrival.headers, rawBody: arrival.body }),
      ).toBe(true);
      const event = JSON.parse(arrival.body) as ThresholdEvent;
      expect(event.id).toBe(arrival.eventId);
      return event;
    })
    .sort(
      (a, b) =>
        a.data.windowEnd.localeCompare(b.data.windowEnd) || a.data.threshold - b.data.threshold,
    );
}

/** A check's usage event with the figures of a daily window, as the engine reports one. */
function crossingEvent(tenantId: string, used: number, cost: number): DecisionEvent {
  const day = 86_400_000;
  return {
    tenantId,
    policy: 'api',
    keyId: 'key_1',
    at: Date.now(),
    identifier: 'user-9',
    allowed: true,
    reason: 'allowed',
    cost,
    shadowDenied: false,
    candidateDenied: false,
    rules: [
      {
        name: 'daily',
        algorithm: 'fixed_window',
        limit: 10,
        remaining: 10 - used,
        resetAt: Math.ceil(Date.now() / day) * day,
        windowMs: day,
      },
    ],
  };
}

async function metric(name: string): Promise<number | undefined> {
  const body = await (await fetch(`${await world.app!.getUrl()}/metrics`)).text();
  const line = body.split('\n').find((text) => text.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('threshold alerts', () => {
  it('deliver one signed 80 % and one 100 % event per window, whichever data planes saw the checks', async () => {
    const sink = await receiver();
    const { endpoint, secret } = await world.createEndpoint(sink.url, { leakRatePerSec: 20 });
    const tenantId = endpoint.tenantId;
    // the checks below must fall in one window: they start with 10 s of it left, so a machine
    // stalled for seconds still makes them in time
    const windowMs = 15_000;
    await publishWindow(tenantId, 10, windowMs);
    const [a, b] = [await dataPlane(tenantId), await dataPlane(tenantId)];
    await world.startWorker();

    await windowWithRoom(windowMs, 10_000);
    const first = await a.check('user-1', 5);
    await b.check('user-1', 3); // 8 of 10: 80 %, seen by b
    await a.check('user-1', 2); // 10 of 10: 100 %, seen by a
    // the identifier starts afresh within the window (an admin reset), then one check of 10
    // crosses both thresholds again: already sent for this window
    await b.reset('user-1');
    const again = await b.check('user-1', 10);
    const windowEnd = first.rules[0]!.resetAt;
    expect(again.rules[0]!.resetAt).toBe(windowEnd);
    await a.flush();
    await b.flush();
    expect(a.recorder.stats()).toMatchObject({ alertsDetected: 1, alertsClaimed: 1 });
    expect(b.recorder.stats()).toMatchObject({ alertsDetected: 3, alertsClaimed: 1 });
    expect(b.recorder.stats().alertsDuplicate).toBe(2);

    await until('both thresholds delivered', async () => {
      return sink.arrivals.length >= 2 && (await settled([endpoint]));
    });
    const window = {
      tenantId,
      policy: 'api',
      rule: 'window',
      identifier: 'user-1',
      limit: 10,
      windowStart: new Date(windowEnd - windowMs).toISOString(),
      windowEnd: new Date(windowEnd).toISOString(),
    };
    const events = thresholdEvents(sink.arrivals, secret);
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: 'sluice.quota.threshold',
        createdAt: expect.any(String),
        data: { ...window, threshold: 80, used: 8, at: expect.any(String) },
      },
      {
        id: expect.any(String),
        type: 'sluice.quota.threshold',
        createdAt: expect.any(String),
        data: { ...window, threshold: 100, used: 10, at: expect.any(String) },
      },
    ]);

    // the next window alerts again
    await until('the next window', async () => (await redisNow(world.redis.redis)) >= windowEnd);
    const next = await a.check('user-1', 10);
    expect(next.rules[0]!.resetAt).toBeGreaterThan(windowEnd);
    await a.flush();
    await until('the next window’s thresholds delivered', async () => {
      return sink.arrivals.length >= 4 && (await settled([endpoint]));
    });
    const all = thresholdEvents(sink.arrivals, secret);
    expect(all.map((event) => [event.data.windowEnd, event.data.threshold])).toEqual([
      [window.windowEnd, 80],
      [window.windowEnd, 100],
      [new Date(next.rules[0]!.resetAt).toISOString(), 80],
      [new Date(next.rules[0]!.resetAt).toISOString(), 100],
    ]);
    expect(new Set(all.map((event) => event.id)).size).toBe(4);
  });

  it('admit an alert once when its entry is read twice: taken over from a dead worker, or added again', async () => {
    const sink = await receiver();
    const { endpoint } = await world.createEndpoint(sink.url, { leakRatePerSec: 20 });
    const { redis, prefix } = world.redis;
    const recorder = new UsageRecorder({ redis: world.redis.connect(), prefix });
    recorder.record(crossingEvent(endpoint.tenantId, 8, 1));
    await recorder.flush();
    const stream = quotaAlertStreamKey(prefix);
    const [[, fields] = ['', []]] = await redis.xrange(stream, '-', '+');
    // a worker read it, then died before acknowledging it
    await redis.xgroup('CREATE', stream, ALERT_GROUP, '0');
    await redis.xreadgroup(
      'GROUP',
      ALERT_GROUP,
      'dead-worker',
      'COUNT',
      10,
      'STREAMS',
      stream,
      '>',
    );
    // and a data plane added it once more (its XADD's reply was lost, say)
    await redis.xadd(stream, '*', ...fields);

    await world.startWorker({ WORKER_ALERTS_RECLAIM_MS: '1000' });
    await until('both entries handled', async () => {
      return sink.arrivals.length >= 1 && (await settled([endpoint]));
    });
    expect(sink.arrivals).toHaveLength(1);
    expect(JSON.parse(sink.arrivals[0]!.body)).toMatchObject({
      type: 'sluice.quota.threshold',
      data: { identifier: 'user-9', threshold: 80, used: 8 },
    });
    expect(await metric('sluice_alerts_received_total')).toBe(2);
    expect(await metric('sluice_alert_events_admitted_total')).toBe(1);
  });

  it('miss an endpoint whose queue is full, counted on /metrics, and reach the others', async () => {
    const sink = await receiver();
    const slow = await receiver();
    const { endpoint: roomy } = await world.createEndpoint(sink.url, { leakRatePerSec: 20 });
    const { endpoint: full } = await world.createEndpoint(slow.url, {
      leakRatePerSec: 0.01,
      queueCapacity: 1,
    });
    // one event fills the slow endpoint's FIFO for 100 s
    await world.enqueue(full, 1);
    const recorder = new UsageRecorder({
      redis: world.redis.connect(),
      prefix: world.redis.prefix,
    });
    recorder.record(crossingEvent(roomy.tenantId, 10, 10));
    await recorder.flush();

    await world.startWorker();
    await until('the alerts handled', async () => {
      return sink.arrivals.length >= 2 && slow.arrivals.length >= 1 && (await settled([roomy]));
    });
    expect(sink.arrivals.map((arrival) => JSON.parse(arrival.body).data.threshold).sort()).toEqual([
      100, 80,
    ]);
    expect(slow.arrivals.map((arrival) => JSON.parse(arrival.body).type)).toEqual(['test.event']);
    expect(await metric('sluice_alerts_received_total')).toBe(2);
    expect(await metric('sluice_alert_events_admitted_total')).toBe(2);
    expect(await metric('sluice_alert_events_refused_total{reason="queue_full"}')).toBe(2);
  });
});
