import { randomBase62 } from '@sluice/algorithms';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { SecretDecryptionError } from './errors';

export const SECRETS_KEY_BYTES = 32;
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SECRET_PREFIX = 'whsec_';

/** Whose secret a ciphertext is: bound in as associated data, so a copy to another endpoint fails. */
export interface SecretOwner {
  tenantId: string;
  endpointId: string;
}

/** The key of `SLUICE_SECRETS_KEY` (32 bytes, base64), or undefined with the reason it is not one. */
export function parseSecretsKey(value: string): Buffer | undefined {
  const trimmed = value.trim();
  if (!BASE64.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === SECRETS_KEY_BYTES ? key : undefined;
}

/**
 * `SLUICE_SECRETS_KEY` for an app's env schema: optional (unset or empty: webhooks cannot sign
 * and the apps say so), never defaulted, so no deployment runs on a key everyone knows.
 */
export const secretsKeyEnvField = () =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .transform((value, context) => {
        const key = parseSecretsKey(value);
        if (key) return key;
        context.addIssue({
          code: 'custom',
          message: `must be ${SECRETS_KEY_BYTES} random bytes in base64 (make one with: openssl rand -base64 32)`,
        });
        return z.NEVER;
      })
      .optional(),
  );

/** A new signing secret: `whsec_` + 32 base62 characters from the CSPRNG (about 190 bits). */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBase62(32);
}

function associatedData(owner: SecretOwner): Buffer {
  return Buffer.from(`sluice-webhook-secret:v${VERSION}:${owner.tenantId}:${owner.endpointId}`);
}

/**
 * AES-256-GCM: `version (1) | iv (12) | tag (16) | ciphertext`, bound to its endpoint; as a
 * plain `Uint8Array`, what a Prisma `Bytes` column takes.
 */
export function encryptSecret(
  key: Buffer,
  secret: string,
  owner: SecretOwner,
): Uint8Array<ArrayBuffer> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(owner));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Uint8Array.from(
    Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]),
  );
}

/** The secret back; `SecretDecryptionError` for another key, another owner or altered bytes. */
export function decryptSecret(key: Buffer, blob: Uint8Array, owner: SecretOwner): string {
  const bytes = Buffer.from(blob);
  if (bytes.length <= 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) {
    throw new SecretDecryptionError('not a webhook secret ciphertext of this version');
  }
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(associatedData(owner));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([
      decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SecretDecryptionError(
      'the signing secret cannot be decrypted: SLUICE_SECRETS_KEY differs from the one that encrypted it',
    );
  }
}
