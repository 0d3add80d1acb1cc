import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  apiKeyKey,
  generateApiKeySecret,
  hashApiKey,
  PolicyStoreError,
  PolicyValidationError,
  putApiKey,
  readApiKey,
  revokeApiKey,
  type ApiKeyRecord,
} from '../src/index';

let t: TestRedis;
beforeEach(() => {
  t = createTestRedis('policy-keys');
});
afterEach(() => t.cleanup());

const record: ApiKeyRecord = { id: 'key_1', tenantId: 'tnt_a', policies: null, scopes: ['check'] };

describe('API key secrets', () => {
  it('are sk_live_ and 32 base62 characters, all different, using the whole alphabet', () => {
    const secrets = Array.from({ length: 2000 }, generateApiKeySecret);
    for (const secret of secrets) expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
    const used = new Set(secrets.flatMap((secret) => [...secret.slice(8)]));
    expect(used.size).toBe(62);
  });

  it('are hashed with SHA-256 to lowercase hex', () => {
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('putApiKey / readApiKey / revokeApiKey', () => {
  it('stores the record under the secret hash only, and reads it by secret or hash', async () => {
    const secret = generateApiKeySecret();
    const hash = await putApiKey(t.redis, t.prefix, secret, record);
    expect(hash).toBe(hashApiKey(secret));
    expect(await t.redis.get(apiKeyKey(t.prefix, hash))).not.toContain(secret);
    expect(await readApiKey(t.redis, t.prefix, secret)).toEqual(record);
    expect(await readApiKey(t.redis, t.prefix, hash)).toEqual(record);
    expect(await readApiKey(t.redis, t.prefix, generateApiKeySecret())).toBeUndefined();
  });

  it('takes a precomputed hash (the control plane never keeps secrets)', async () => {
    const hash = hashApiKey('sk_live_fromthecontrolplane');
    expect(await putApiKey(t.redis, t.prefix, hash, record)).toBe(hash);
    expect(await readApiKey(t.redis, t.prefix, 'sk_live_fromthecontrolplane')).toEqual(record);
  });

  it('replaces a record, and revoking deletes it once', async () => {
    const secret = generateApiKeySecret();
    await putApiKey(t.redis, t.prefix, secret, record);
    const limited: ApiKeyRecord = { ...record, policies: ['api'], scopes: ['check', 'admin'] };
    await putApiKey(t.redis, t.prefix, secret, limited);
    expect(await readApiKey(t.redis, t.prefix, secret)).toEqual(limited);
    expect(await revokeApiKey(t.redis, t.prefix, secret)).toBe(true);
    expect(await readApiKey(t.redis, t.prefix, secret)).toBeUndefined();
    expect(await revokeApiKey(t.redis, t.prefix, secret)).toBe(false);
  });

  it('lets Redis expire the record with the key', async () => {
    const secret = generateApiKeySecret();
    const expiresAt = Date.now() + 3_600_000;
    const hash = await putApiKey(t.redis, t.prefix, secret, { ...record, expiresAt });
    expect(await t.redis.call('PEXPIRETIME', apiKeyKey(t.prefix, hash))).toBe(expiresAt);
    expect(await readApiKey(t.redis, t.prefix, secret)).toEqual({ ...record, expiresAt });
  });

  it.each([
    [{ ...record, id: 'key 1' }, 'id'],
    [{ ...record, tenantId: '' }, 'tenantId'],
    [{ ...record, scopes: [] }, 'scopes'],
    [{ ...record, scopes: ['check', 'check'] }, 'scopes'],
    [{ ...record, scopes: ['write'] }, 'scopes[0]'],
    [{ ...record, policies: ['API'] }, 'policies[0]'],
    [{ ...record, policies: undefined }, 'policies'],
    [{ ...record, expiresAt: 1.5 }, 'expiresAt'],
    [{ ...record, name: 'extra' }, 'name'],
  ])('refuses record %j at %s', async (bad, path) => {
    const put = putApiKey(t.redis, t.prefix, generateApiKeySecret(), bad as ApiKeyRecord);
    await expect(put).rejects.toThrow(PolicyValidationError);
    await put.catch((error: PolicyValidationError) =>
      expect(error.issues.map((issue) => issue.path)).toEqual([path]),
    );
  });

  it('reads a corrupt record as a PolicyStoreError naming the key', async () => {
    const hash = hashApiKey('sk_live_corrupt');
    const key = apiKeyKey(t.prefix, hash);
    await t.redis.set(key, 'not json');
    await expect(readApiKey(t.redis, t.prefix, hash)).rejects.toThrow(
      new PolicyStoreError(key, 'API key record is not valid JSON'),
    );
    await t.redis.set(key, JSON.stringify({ ...record, scopes: 'check' }));
    await expect(readApiKey(t.redis, t.prefix, hash)).rejects.toThrow(
      `${key}: not an API key record: scopes:`,
    );
  });
});
