import { createTestRedis, type TestRedis } from '@sluice/testing';
import {
  encryptSecret,
  generateSigningSecret,
  publishWebhookEndpoints,
  type WebhookEndpointRecord,
} from '@sluice/webhooks';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  parseQuotaAlert,
  quotaAlertStreamKey,
  UsageFlushError,
  UsageRecorder,
  type QuotaAlert,
  type RuleFigures,
  type UsageRecorderOptions,
} from '../src/index';
import { decision, dumpKeys } from './support';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('usage-alerts');
});
afterEach(() => t.cleanup());

const SECRETS_KEY = randomBytes(32);
const HOUR = 3_600_000;
/**
 * When the checks happen: now. A fixed window's claim lasts until the window's end, but at least
 * a minute after the check; dated at the start of the minute instead, checks made near the end of
 * an hour would leave claims that may already have expired when the test reads them.
 */
const AT_MS = Date.now();
/** The end of the current hour: a fixed window of an hour that has not ended. */
const WINDOW_END = Math.ceil((AT_MS + 1) / HOUR) * HOUR;

let endpointIds = 0;
/** Publishes the tenant's webhook endpoints as the control plane's relay does. */
async function endpoints(tenantId: string, enabled: boolean[]): Promise<void> {
  const rows: WebhookEndpointRecord[] = enabled.map((on) => {
    const id = `wh_alerts${(endpointIds += 1)}`;
    return {
      id,
      tenantId,
      name: `hooks-${endpointIds}`,
      url: 'https://hooks.example.com/in',
      leakRatePerSec: 1,
      queueCapacity: 10,
      maxAttempts: 3,
      enabled: on,
      pausedUntil: null,
      secretCiphertext: encryptSecret(SECRETS_KEY, generateSigningSecret(), {
        tenantId,
        endpointId: id,
      }),
    };
  });
  await publishWebhookEndpoints(t.redis, t.prefix, tenantId, rows);
}

function recorder(options: Partial<UsageRecorderOptions> = {}): UsageRecorder {
  return new UsageRecorder({
    redis: t.connect(),
    prefix: t.prefix,
    allowSampleRate: 0,
    ...options,
  });
}

const daily = (limit: number, remaining: number, resetAt = WINDOW_END): RuleFigures => ({
  name: 'hourly',
  algorithm: 'fixed_window',
  limit,
  remaining,
  resetAt,
  windowMs: HOUR,
});

/** Checks of cost 1 by one identifier in a window of `limit`, from `from` used up to `to`. */
function fill(
  target: UsageRecorder,
  limit: number,
  from: number,
  to: number,
  over: { resetAt?: number; tenantId?: string } = {},
) {
  for (let used = from + 1; used <= to; used += 1) {
    const rules = [daily(limit, limit - used, over.resetAt)];
    target.record(decision({ tenantId: over.tenantId ?? 'tnt_a', at: AT_MS + used, rules }));
  }
}

async function streamed(): Promise<QuotaAlert[]> {
  const entries = await t.redis.xrange(quotaAlertStreamKey(t.prefix), '-', '+');
  return entries.map(([, fields]) => {
    const alert = parseQuotaAlert(fields);
    if (!alert) throw new Error(`not an alert: ${fields.join(' ')}`);
    return alert;
  });
}

describe('threshold alerts', () => {
  it('are claimed and streamed once per threshold and window, with their claims expiring with it', async () => {
    await endpoints('tnt_a', [true]);
    const usage = recorder();
    fill(usage, 10, 0, 7);
    await usage.flush();
    expect(await streamed()).toEqual([]);
    fill(usage, 10, 7, 10);
    await usage.flush();

    const alerts = await streamed();
    expect(alerts).toEqual([
      {
        id: expect.any(String),
        tenantId: 'tnt_a',
        policy: 'api',
        rule: 'hourly',
        identifier: 'user-1',
        threshold: 80,
        limit: 10,
        used: 8,
        windowStart: WINDOW_END - HOUR,
        windowEnd: WINDOW_END,
        at: AT_MS + 8,
      },
      expect.objectContaining({ threshold: 100, used: 10, at: AT_MS + 10 }),
    ]);
    expect(alerts[0]!.id).not.toBe(alerts[1]!.id);
    expect(usage.stats()).toMatchObject({
      alertsDetected: 2,
      alertsClaimed: 2,
      alertsPublished: 2,
      alertsDuplicate: 0,
      alertsWaiting: 0,
    });

    // the claims last until the window's end (at least a minute), and name no identifier
    const claims = Object.keys(await dumpKeys(t.redis, t.prefix)).filter((key) =>
      key.startsWith('quota-alert:'),
    );
    expect(claims).toEqual([
      expect.stringMatching(
        new RegExp(`^quota-alert:\\{tnt_a\\}:api:hourly:[A-Za-z0-9_-]{22}:${WINDOW_END}:100$`),
      ),
      expect.stringMatching(/:80$/),
    ]);
    expect(claims.join()).not.toContain('user-1');
    const expiries = await Promise.all(claims.map((key) => t.redis.pexpiretime(t.prefix + key)));
    expect(expiries).toEqual([
      Math.max(WINDOW_END, AT_MS + 10 + 60_000),
      Math.max(WINDOW_END, AT_MS + 8 + 60_000),
    ]);

    // the same identifier crossing again in the same window (after a reset, say): nothing new
    fill(usage, 10, 0, 10);
    await usage.flush();
    expect(await streamed()).toHaveLength(2);
    expect(usage.stats()).toMatchObject({ alertsDetected: 4, alertsDuplicate: 2 });

    // the next window alerts again
    fill(usage, 10, 0, 10, { resetAt: WINDOW_END + HOUR });
    await usage.flush();
    expect((await streamed()).map((a) => [a.threshold, a.windowEnd])).toEqual([
      [80, WINDOW_END],
      [100, WINDOW_END],
      [80, WINDOW_END + HOUR],
      [100, WINDOW_END + HOUR],
    ]);
  });

  it('go out once when several data planes see the same crossing', async () => {
    await endpoints('tnt_a', [true]);
    const planes = [recorder(), recorder(), recorder()];
    for (const plane of planes) fill(plane, 10, 7, 10);
    await Promise.all(planes.map((plane) => plane.flush()));

    expect((await streamed()).map((alert) => alert.threshold).sort()).toEqual([100, 80]);
    const stats = planes.map((plane) => plane.stats());
    expect(stats.reduce((sum, s) => sum + s.alertsClaimed, 0)).toBe(2);
    expect(stats.reduce((sum, s) => sum + s.alertsDuplicate, 0)).toBe(4);
  });

  it('cost a tenant without an enabled endpoint no claim and no stream entry', async () => {
    // tnt_a has no endpoint at all, tnt_b only disabled ones
    await endpoints('tnt_b', [false, false]);
    const usage = recorder();
    fill(usage, 10, 0, 10);
    fill(usage, 10, 0, 10, { tenantId: 'tnt_b' });
    await usage.flush();

    const keys = Object.keys(await dumpKeys(t.redis, t.prefix));
    expect(keys.filter((key) => key.startsWith('quota-alert'))).toEqual([]);
    expect(usage.stats()).toMatchObject({
      alertsDetected: 4,
      alertsWithoutEndpoint: 4,
      alertsClaimed: 0,
    });
    expect(await t.redis.exists(quotaAlertStreamKey(t.prefix))).toBe(0);

    // enabling an endpoint lets the next crossing through
    await endpoints('tnt_a', [false, true]);
    fill(usage, 10, 7, 8);
    await usage.flush();
    expect((await streamed()).map((alert) => alert.threshold)).toEqual([80]);
  });

  it('are not detected when turned off', async () => {
    await endpoints('tnt_a', [true]);
    const usage = recorder({ thresholdAlerts: false });
    fill(usage, 10, 0, 10);
    await usage.flush();
    expect(usage.stats().alertsDetected).toBe(0);
    expect(await streamed()).toEqual([]);
  });

  it('wait when the stream cannot be written and are streamed once later, not claimed again', async () => {
    await endpoints('tnt_a', [true]);
    const stream = quotaAlertStreamKey(t.prefix);
    // a key of the wrong type makes every XADD fail
    await t.redis.set(stream, 'in the way');
    const usage = recorder();
    fill(usage, 10, 7, 10);
    await expect(usage.flush()).rejects.toBeInstanceOf(UsageFlushError);
    expect(usage.stats()).toMatchObject({ alertsClaimed: 2, alertsWaiting: 2, alertsPublished: 0 });

    await t.redis.del(stream);
    // nothing new recorded: the flush still sends what waits
    await usage.flush();
    expect((await streamed()).map((alert) => alert.threshold)).toEqual([80, 100]);
    expect(usage.stats()).toMatchObject({ alertsClaimed: 2, alertsWaiting: 0, alertsPublished: 2 });
  });

  it('are claimed again by the next flush when the claim failed, still once', async () => {
    const endpointsKey = `${t.prefix}webhook-endpoints:{tnt_a}`;
    // the endpoints hash of the wrong type: the claim script fails
    await t.redis.set(endpointsKey, 'in the way');
    const usage = recorder();
    fill(usage, 10, 7, 10);
    await expect(usage.flush()).rejects.toBeInstanceOf(UsageFlushError);
    expect(usage.stats()).toMatchObject({ alertsDetected: 2, alertsClaimed: 0 });

    await t.redis.del(endpointsKey);
    await endpoints('tnt_a', [true]);
    await usage.flush();
    await usage.flush();
    expect((await streamed()).map((alert) => alert.threshold)).toEqual([80, 100]);
    expect(usage.stats()).toMatchObject({ alertsClaimed: 2, alertsPublished: 2 });
  });
});
