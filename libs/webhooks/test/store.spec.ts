import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  decryptSecret,
  endpointKeys,
  listPublishedEndpoints,
  publishWebhookEndpoints,
  readWebhookEndpoint,
  WebhookInputError,
} from '../src';
import { endpointRecord, keysUnder, SECRETS_KEY } from './support';

let t: TestRedis;

beforeEach(() => {
  t = createTestRedis('wh-store');
});
afterEach(async () => {
  await t.cleanup();
});

describe('publishing endpoints to Redis', () => {
  it('makes each endpoint readable by id and by name, within its tenant only', async () => {
    const a = endpointRecord('tnt_a', { name: 'billing' });
    const b = endpointRecord('tnt_b', { name: 'billing' });
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [a]);
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_b', [b]);

    const byId = await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', a.id);
    expect(byId).toMatchObject({
      id: a.id,
      tenantId: 'tnt_a',
      name: 'billing',
      url: a.url,
      leakRatePerSec: 5,
      queueCapacity: 10,
      maxAttempts: 3,
      enabled: true,
      pausedUntil: null,
      previousSecret: null,
    });
    expect(await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', 'billing')).toEqual(byId);
    expect((await readWebhookEndpoint(t.redis, t.prefix, 'tnt_b', 'billing'))?.id).toBe(b.id);
    // another tenant's endpoint id is not found under this tenant
    expect(await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', b.id)).toBeUndefined();
    expect(await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', 'nope')).toBeUndefined();
  });

  it('stores the secret as ciphertext only, which the key decrypts for that endpoint', async () => {
    const a = endpointRecord('tnt_a');
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [a]);

    const keys = await keysUnder(t.redis, t.prefix);
    for (const key of keys) {
      const dump = JSON.stringify(
        (await t.redis.type(key)) === 'hash'
          ? await t.redis.hgetall(key)
          : await t.redis.smembers(key),
      );
      expect(dump).not.toContain(a.secret);
    }
    const published = await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', a.id);
    const blob = Buffer.from(published!.secret, 'base64');
    expect(decryptSecret(SECRETS_KEY, blob, { tenantId: 'tnt_a', endpointId: a.id })).toBe(
      a.secret,
    );
  });

  it('replaces the set: a removed endpoint is gone with its queue state', async () => {
    const keep = endpointRecord('tnt_a');
    const drop = endpointRecord('tnt_a');
    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [keep, drop]);
    const dropKeys = endpointKeys(t.prefix, 'tnt_a', drop.id);
    await t.redis.zadd(dropKeys.pending, 1, 'evt_x');
    await t.redis.hset(dropKeys.state, 'delivered', 3);

    const outcome = await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [
      { ...keep, url: 'https://hooks.example.com/v2' },
    ]);

    expect(outcome).toEqual({ written: 1, removed: [drop.id] });
    expect((await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', keep.id))?.url).toBe(
      'https://hooks.example.com/v2',
    );
    expect(await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', drop.id)).toBeUndefined();
    expect(await readWebhookEndpoint(t.redis, t.prefix, 'tnt_a', drop.name)).toBeUndefined();
    expect(await t.redis.exists(dropKeys.pending, dropKeys.state)).toBe(0);
    expect(await listPublishedEndpoints(t.redis, t.prefix)).toEqual([
      { tenantId: 'tnt_a', endpointId: keep.id },
    ]);

    await publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', []);
    expect(await listPublishedEndpoints(t.redis, t.prefix)).toEqual([]);
  });

  it('refuses a row of another tenant or with settings out of bounds, naming the field', async () => {
    await expect(
      publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [endpointRecord('tnt_b')]),
    ).rejects.toThrow(WebhookInputError);
    const bad = endpointRecord('tnt_a', { leakRatePerSec: 0 });
    await expect(publishWebhookEndpoints(t.redis, t.prefix, 'tnt_a', [bad])).rejects.toThrow(
      `endpoints[${bad.id}].leakRatePerSec`,
    );
    expect(await keysUnder(t.redis, t.prefix)).toEqual([]);
  });
});
