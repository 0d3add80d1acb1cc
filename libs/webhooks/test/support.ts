import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { encryptSecret, generateSigningSecret, type WebhookEndpointRecord } from '../src';

export const SECRETS_KEY = randomBytes(32);

let endpoints = 0;

/** A `WebhookEndpoint` row as the relay reads it, with its secret encrypted. */
export function endpointRecord(
  tenantId: string,
  over: Partial<WebhookEndpointRecord> = {},
): WebhookEndpointRecord & { secret: string } {
  const id = over.id ?? `wh_test${(endpoints += 1)}`;
  const secret = generateSigningSecret();
  return {
    id,
    tenantId,
    name: `hooks-${endpoints}`,
    url: 'https://hooks.example.com/in',
    leakRatePerSec: 5,
    queueCapacity: 10,
    maxAttempts: 3,
    enabled: true,
    pausedUntil: null,
    secretCiphertext: encryptSecret(SECRETS_KEY, secret, { tenantId, endpointId: id }),
    ...over,
    secret,
  };
}

/** Every key under `prefix` (SCAN, so a shared server is not blocked). */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}
