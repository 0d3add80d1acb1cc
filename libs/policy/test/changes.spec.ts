import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  changesChannel,
  compileTenant,
  deleteTenant,
  generateApiKeySecret,
  hashApiKey,
  publishTenant,
  putApiKey,
  revokeApiKey,
  subscribeChanges,
  type ChangeMessage,
} from '../src/index';
import { tenantInput } from './fixtures';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('policy-changes');
});
afterEach(() => t.cleanup());

/** Subscribes and collects messages; `count(n)` resolves once n have arrived in all. */
async function listen(prefix = t.prefix) {
  const received: ChangeMessage[] = [];
  const invalid: string[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const unsubscribe = await subscribeChanges(
    t.connect(),
    prefix,
    (change) => {
      received.push(change);
      for (const waiter of waiters) if (received.length >= waiter.n) waiter.resolve();
    },
    { onInvalid: (raw) => invalid.push(raw) },
  );
  const count = (n: number) =>
    new Promise<void>((resolve) => {
      if (received.length >= n) resolve();
      else waiters.push({ n, resolve });
    });
  return { received, invalid, count, unsubscribe };
}

describe('subscribeChanges', () => {
  it('receives a message for every write, in order', async () => {
    const changes = await listen();
    const secret = generateApiKeySecret();
    const hash = hashApiKey(secret);
    const expected: ChangeMessage[] = [
      { kind: 'tenant', tenantId: 'tnt_a', version: 1 },
      { kind: 'tenant', tenantId: 'tnt_a', version: 4 },
      { kind: 'tenant-deleted', tenantId: 'tnt_a' },
      { kind: 'api-key', hash },
      { kind: 'api-key', hash },
    ];
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a')));
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a'), 4));
    await deleteTenant(t.redis, t.prefix, 'tnt_a');
    await putApiKey(t.redis, t.prefix, secret, {
      id: 'key_1',
      tenantId: 'tnt_a',
      policies: null,
      scopes: ['check'],
    });
    await revokeApiKey(t.redis, t.prefix, secret);
    await changes.count(expected.length);
    expect(changes.received).toEqual(expected);
  });

  it('sends nothing for a refused publish or a delete of nothing', async () => {
    const changes = await listen();
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a'), 2));
    await expect(
      publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a'), 2)),
    ).rejects.toThrow();
    await deleteTenant(t.redis, t.prefix, 'tnt_none');
    // a marker sent last: everything before it has been delivered once it arrives
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_m')));
    await changes.count(2);
    expect(changes.received).toEqual([
      { kind: 'tenant', tenantId: 'tnt_a', version: 2 },
      { kind: 'tenant', tenantId: 'tnt_m', version: 1 },
    ]);
  });

  it('skips malformed messages and other prefixes, and stops after unsubscribing', async () => {
    const changes = await listen();
    const other = await listen(`${t.prefix}other:`);
    const channel = changesChannel(t.prefix);
    await t.redis.publish(channel, 'not json');
    await t.redis.publish(channel, JSON.stringify({ kind: 'tenant', tenantId: 'x' }));
    await t.redis.publish(channel, JSON.stringify({ kind: 'tenant-deleted', tenantId: 'x' }));
    await changes.count(1);
    expect(changes.invalid).toEqual(['not json', '{"kind":"tenant","tenantId":"x"}']);
    expect(other.received).toEqual([]);

    await changes.unsubscribe();
    await t.redis.publish(channel, JSON.stringify({ kind: 'tenant-deleted', tenantId: 'y' }));
    await t.redis.publish(
      changesChannel(`${t.prefix}other:`),
      JSON.stringify({ kind: 'tenant-deleted', tenantId: 'z' }),
    );
    await other.count(1);
    expect(changes.received).toEqual([{ kind: 'tenant-deleted', tenantId: 'x' }]);
  });
});
