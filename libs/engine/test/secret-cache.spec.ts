import * as policyLib from '@sluice/policy';
import { revokeApiKey } from '@sluice/policy';
import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthenticationError } from '../src/index';
import { apiKey, startEngine, until, type EngineSetup } from './support';

// observed (it still runs): how often a secret is hashed
vi.mock('@sluice/policy', async (importOriginal) => {
  const actual = await importOriginal<typeof policyLib>();
  return { ...actual, hashApiKey: vi.fn(actual.hashApiKey) };
});

let t: TestRedis;
let setup: EngineSetup | undefined;
beforeEach(() => {
  t = createTestRedis('engine-secret');
  vi.mocked(policyLib.hashApiKey).mockClear();
});
afterEach(async () => {
  await setup?.engine.stop();
  setup = undefined;
  await t.cleanup();
});

describe('API keys by secret', () => {
  it('hashes a secret once: warm authentications are answered without a promise or a hash', async () => {
    const { secret, record } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t);
    expect(setup.engine.authenticateCached(secret)).toBeUndefined();
    expect(await setup.engine.authenticate(secret)).toEqual(record);

    for (let i = 0; i < 5; i += 1) expect(setup.engine.authenticateCached(secret)).toEqual(record);
    expect(await setup.engine.authenticate(secret)).toEqual(record);
    expect(policyLib.hashApiKey).toHaveBeenCalledTimes(1);
  });

  it('forgets the secret with its revoked record: the next use is hashed and refused', async () => {
    const { secret } = await apiKey(t, 'tnt_a');
    setup = await startEngine(t, { cacheTuning: { keyRecheckMs: 600_000 } });
    await setup.engine.authenticate(secret);

    await revokeApiKey(t.redis, t.prefix, secret);
    await until(() => setup!.engine.authenticateCached(secret) === undefined);

    await expect(setup.engine.authenticate(secret)).rejects.toThrow(AuthenticationError);
    // the first use, and the first after the revocation
    expect(policyLib.hashApiKey).toHaveBeenCalledTimes(2);
  });

  it('does not keep the secrets of unknown keys', async () => {
    setup = await startEngine(t);
    const unknown = 'sk_live_neverstoredxxxxxxxxxxxxxxxxxx';
    await expect(setup.engine.authenticate(unknown)).rejects.toThrow(AuthenticationError);
    await expect(setup.engine.authenticate(unknown)).rejects.toThrow(AuthenticationError);
    // answered from the negative entry, but hashed each time: nothing was kept by secret
    expect(policyLib.hashApiKey).toHaveBeenCalledTimes(2);
  });

  it('refuses an expired key whether its record is cached or not', async () => {
    let now = Date.now();
    const { secret } = await apiKey(t, 'tnt_a', { expiresAt: now + 1000 });
    setup = await startEngine(t, { clock: () => now });
    await setup.engine.authenticate(secret);
    now += 1000;
    expect(() => setup!.engine.authenticateCached(secret)).toThrow(AuthenticationError);
    await expect(setup.engine.authenticate(secret)).rejects.toThrow('expired');
  });
});
