import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SecretDecryptionError } from './errors';
import {
  decryptSecret,
  encryptSecret,
  generateSigningSecret,
  parseSecretsKey,
  secretsKeyEnvField,
} from './secrets';

const key = randomBytes(32);
const owner = { tenantId: 'tnt_a', endpointId: 'wh_1' };

describe('signing secrets at rest', () => {
  it('are random whsec_ secrets of 32 base62 characters', () => {
    const a = generateSigningSecret();
    expect(a).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(generateSigningSecret()).not.toBe(a);
  });

  it('encrypt to bytes that do not contain the secret, and decrypt back', () => {
    const secret = generateSigningSecret();
    const blob = encryptSecret(key, secret, owner);

    expect(Buffer.from(blob).includes(Buffer.from(secret))).toBe(false);
    expect(Buffer.from(blob).includes(Buffer.from(secret.slice(6)))).toBe(false);
    expect(decryptSecret(key, blob, owner)).toBe(secret);
    // a fresh IV each time: the same secret never gives the same bytes
    expect(Buffer.from(encryptSecret(key, secret, owner)).equals(Buffer.from(blob))).toBe(false);
  });

  it('refuse another key, another endpoint (a copied ciphertext) and altered bytes', () => {
    const blob = encryptSecret(key, generateSigningSecret(), owner);
    const altered = Buffer.from(blob);
    altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1;

    expect(() => decryptSecret(randomBytes(32), blob, owner)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(key, blob, { ...owner, endpointId: 'wh_2' })).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret(key, blob, { ...owner, tenantId: 'tnt_b' })).toThrow(
      SecretDecryptionError,
    );
    expect(() => decryptSecret(key, altered, owner)).toThrow(SecretDecryptionError);
    expect(() => decryptSecret(key, Buffer.from('short'), owner)).toThrow(SecretDecryptionError);
  });
});

describe('SLUICE_SECRETS_KEY', () => {
  const schema = z.object({ SLUICE_SECRETS_KEY: secretsKeyEnvField() });

  it('is 32 bytes of base64', () => {
    const encoded = key.toString('base64');
    expect(parseSecretsKey(encoded)?.equals(key)).toBe(true);
    expect(schema.parse({ SLUICE_SECRETS_KEY: encoded }).SLUICE_SECRETS_KEY?.equals(key)).toBe(
      true,
    );
  });

  it('has no default: unset or empty stays unset', () => {
    expect(schema.parse({}).SLUICE_SECRETS_KEY).toBeUndefined();
    expect(schema.parse({ SLUICE_SECRETS_KEY: '' }).SLUICE_SECRETS_KEY).toBeUndefined();
  });

  it('refuses other lengths and non-base64, saying how to make one', () => {
    for (const bad of [randomBytes(16).toString('base64'), 'not base64!', 'secret']) {
      const result = schema.safeParse({ SLUICE_SECRETS_KEY: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toContain('openssl rand -base64 32');
    }
  });
});
