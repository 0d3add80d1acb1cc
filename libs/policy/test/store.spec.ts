import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  compileTenant,
  deleteTenant,
  PolicyStoreError,
  PolicyValidationError,
  publishTenant,
  readTenant,
  readTenantVersions,
  tenantKey,
  VersionConflictError,
} from '../src/index';
import { tenantInput } from './fixtures';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('policy-store');
});
afterEach(() => t.cleanup());

async function serverMs(): Promise<number> {
  const [seconds, micros] = await t.redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

describe('publishTenant / readTenant', () => {
  it('round-trips the compiled tenant exactly, with its version and the Redis publish time', async () => {
    const compiled = compileTenant(tenantInput('tnt_a'), 3);
    const before = await serverMs();
    const published = await publishTenant(t.redis, t.prefix, compiled);
    const after = await serverMs();
    expect(published).toEqual({ ...compiled, version: 3, publishedAt: published.publishedAt });
    expect(published.publishedAt).toBeGreaterThanOrEqual(before);
    expect(published.publishedAt).toBeLessThanOrEqual(after);
    const read = await readTenant(t.redis, t.prefix, 'tnt_a');
    expect(read).toEqual(published);
    expect(read?.policies['api']?.rules[0]?.rule).toEqual({
      algorithm: 'token_bucket',
      capacity: 20,
      refillPerSecond: 0.30000000000000004,
    });
  });

  it('round-trips concurrency rules, their overrides and the reservation settings', async () => {
    const input = tenantInput('tnt_l');
    const [policy] = input.policies;
    input.policies = [
      {
        ...policy!,
        rules: [
          ...policy!.rules,
          { name: 'inflight', algorithm: 'concurrency', limit: 5, leaseTtlMs: 120_000 },
        ],
        overrides: [{ id: 'ovr_big', identifier: 'big', rules: { inflight: { limit: 50 } } }],
        reservations: { ttlMs: 60_000 },
      },
      {
        id: 'pol_calls',
        name: 'calls',
        rules: [{ name: 'inflight', algorithm: 'concurrency', limit: 2, leaseTtlMs: 1000 }],
      },
    ];
    const published = await publishTenant(t.redis, t.prefix, compileTenant(input));
    const read = await readTenant(t.redis, t.prefix, 'tnt_l');
    expect(read).toEqual(published);
    expect(read?.policies['api']).toMatchObject({
      concurrencyRules: [
        { name: 'inflight', rule: { algorithm: 'concurrency', limit: 5, leaseTtlMs: 120_000 } },
      ],
      overrides: [
        {
          id: 'ovr_big',
          rules: {},
          concurrencyRules: {
            inflight: { algorithm: 'concurrency', limit: 50, leaseTtlMs: 120_000 },
          },
        },
      ],
      reservations: { ttlMs: 60_000 },
    });
    expect(read?.policies['calls']).toMatchObject({
      rules: [],
      concurrencyRules: [{ name: 'inflight' }],
    });
  });

  it('reads nothing for a tenant never published', async () => {
    expect(await readTenant(t.redis, t.prefix, 'tnt_none')).toBeUndefined();
  });

  it("'next' stores the stored version + 1, starting at 1", async () => {
    const versions = [];
    for (let i = 0; i < 3; i += 1) {
      versions.push(
        (await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a')))).version,
      );
    }
    expect(versions).toEqual([1, 2, 3]);
    expect((await readTenant(t.redis, t.prefix, 'tnt_a'))?.version).toBe(3);
  });

  it('refuses an equal or older version and keeps what was stored', async () => {
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a', 'five'), 5));
    for (const version of [5, 4, 1]) {
      const publish = publishTenant(
        t.redis,
        t.prefix,
        compileTenant(tenantInput('tnt_a', 'old'), version),
      );
      await expect(publish).rejects.toThrow(VersionConflictError);
      await expect(publish).rejects.toThrow(
        `tenant tnt_a: version ${version} refused, the stored version is 5 (versions only grow)`,
      );
    }
    const read = await readTenant(t.redis, t.prefix, 'tnt_a');
    expect(read?.version).toBe(5);
    expect(read?.policies['api']?.description).toBe('five');
    expect(
      (await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a'), 9))).version,
    ).toBe(9);
  });

  it('keeps the highest of 50 concurrent publishes in random order', async () => {
    const versions = Array.from({ length: 50 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    const connections = Array.from({ length: 5 }, () => t.connect());
    const outcomes = await Promise.allSettled(
      versions.map((version, i) =>
        publishTenant(
          connections[i % connections.length]!,
          t.prefix,
          compileTenant(tenantInput('tnt_a', `v${version}`), version),
        ),
      ),
    );
    const stored = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.version] : []));
    expect(stored).toContain(50);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(outcome.reason).toBeInstanceOf(VersionConflictError);
    }
    const read = await readTenant(t.redis, t.prefix, 'tnt_a');
    expect(read?.version).toBe(50);
    expect(read?.policies['api']?.description).toBe('v50');
  });

  it('refuses a bad version or tenant id before any Redis call', async () => {
    const compiled = compileTenant(tenantInput('tnt_a'));
    await expect(publishTenant(t.redis, t.prefix, { ...compiled, version: 0 })).rejects.toThrow(
      PolicyValidationError,
    );
    await expect(readTenant(t.redis, t.prefix, 'tnt}{x')).rejects.toThrow(
      'tenantId: must match ^[A-Za-z0-9_-]{1,64}$',
    );
  });
});

describe('readers validate what they read', () => {
  const key = () => tenantKey(t.prefix, 'tnt_a');
  const config = () => {
    const { version: _version, ...rest } = compileTenant(tenantInput('tnt_a'));
    return rest;
  };
  const write = (fields: Record<string, string>) => t.redis.hset(key(), fields);

  it.each([
    ['not JSON', { version: '1', publishedAt: '1', config: '{' }, 'config is not valid JSON'],
    [
      'a bad rule',
      {
        version: '1',
        publishedAt: '1',
        config: JSON.stringify({
          ...config(),
          policies: {
            api: {
              ...config().policies['api'],
              rules: [{ name: 'r', rule: { algorithm: 'gcra' } }],
            },
          },
        }),
      },
      /config is not a compiled tenant: policies\.api\.rules\[0\]\.rule: rule\.limit: must be an integer/,
    ],
    [
      'a concurrency rule among the rate rules',
      {
        version: '1',
        publishedAt: '1',
        config: JSON.stringify({
          ...config(),
          policies: {
            api: {
              ...config().policies['api'],
              rules: [
                { name: 'r', rule: { algorithm: 'concurrency', limit: 1, leaseTtlMs: 1000 } },
              ],
            },
          },
        }),
      },
      /policies\.api\.rules\[0\]\.rule: rule\.algorithm: concurrency is not a rate rule/,
    ],
    [
      'no live rule',
      {
        version: '1',
        publishedAt: '1',
        config: JSON.stringify({
          ...config(),
          policies: { api: { ...config().policies['api'], rules: [] } },
        }),
      },
      /policies\.api\.rules: a policy needs at least one live rule/,
    ],
    [
      'a reservation TTL out of bounds',
      {
        version: '1',
        publishedAt: '1',
        config: JSON.stringify({
          ...config(),
          policies: { api: { ...config().policies['api'], reservations: { ttlMs: 10 } } },
        }),
      },
      /policies\.api\.reservations\.ttlMs:/,
    ],
    [
      'a missing field',
      {
        version: '1',
        publishedAt: '1',
        config: JSON.stringify({ ...config(), status: undefined }),
      },
      /status:/,
    ],
    [
      'another tenant',
      {
        version: '1',
        publishedAt: '1',
        config: JSON.stringify({ ...config(), tenantId: 'tnt_b' }),
      },
      'config belongs to tenant tnt_b',
    ],
    [
      'a policy under another name',
      {
        version: '1',
        publishedAt: '1',
        config: JSON.stringify({ ...config(), policies: { web: config().policies['api'] } }),
      },
      'policy "web" is named api',
    ],
    [
      'a bad version',
      { version: 'x', publishedAt: '1', config: JSON.stringify(config()) },
      'version is "x", not an integer >= 1',
    ],
    [
      'no publish time',
      { version: '2', config: JSON.stringify(config()) },
      'publishedAt is null, not an integer >= 0',
    ],
  ])('a record with %s is a PolicyStoreError naming the key', async (_label, fields, message) => {
    await write(fields);
    const read = readTenant(t.redis, t.prefix, 'tnt_a');
    await expect(read).rejects.toThrow(PolicyStoreError);
    await expect(read).rejects.toThrow(message);
    await expect(readTenant(t.redis, t.prefix, 'tnt_a')).rejects.toThrow(`${key()}: `);
  });

  it('readTenantVersions reads many versions at once, undefined where none, and refuses a corrupt one', async () => {
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a'), 4));
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_b'), 7));
    expect(await readTenantVersions(t.redis, t.prefix, ['tnt_a', 'tnt_b', 'tnt_c'])).toEqual(
      new Map([
        ['tnt_a', 4],
        ['tnt_b', 7],
        ['tnt_c', undefined],
      ]),
    );
    expect(await readTenantVersions(t.redis, t.prefix, [])).toEqual(new Map());
    await t.redis.hset(tenantKey(t.prefix, 'tnt_c'), 'version', '-1');
    await expect(readTenantVersions(t.redis, t.prefix, ['tnt_c'])).rejects.toThrow(
      'version is "-1", not an integer >= 1',
    );
  });
});

describe('deleteTenant', () => {
  it('deletes the configuration but keeps the version growing', async () => {
    await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a'), 5));
    expect(await deleteTenant(t.redis, t.prefix, 'tnt_a')).toBe(true);
    expect(await readTenant(t.redis, t.prefix, 'tnt_a')).toBeUndefined();
    // the tombstone's version is above the deleted one, so a re-check notices the deletion
    expect(await readTenantVersions(t.redis, t.prefix, ['tnt_a'])).toEqual(new Map([['tnt_a', 6]]));
    await expect(
      publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a'), 6)),
    ).rejects.toThrow('version 6 refused, the stored version is 6');
    expect(await deleteTenant(t.redis, t.prefix, 'tnt_a')).toBe(false);
    const again = await publishTenant(t.redis, t.prefix, compileTenant(tenantInput('tnt_a')));
    expect(again.version).toBe(7);
    expect(await readTenant(t.redis, t.prefix, 'tnt_a')).toEqual(again);
    expect((await t.redis.hkeys(tenantKey(t.prefix, 'tnt_a'))).sort()).toEqual([
      'config',
      'publishedAt',
      'version',
    ]);
  });

  it('is false for a tenant never published', async () => {
    expect(await deleteTenant(t.redis, t.prefix, 'tnt_none')).toBe(false);
    expect(await t.redis.exists(tenantKey(t.prefix, 'tnt_none'))).toBe(0);
  });
});
