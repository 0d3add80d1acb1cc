import { createHash } from 'node:crypto';
import { randomBase62, type RedisLike } from '@sluice/algorithms';
import type { ChainableCommander } from 'ioredis';
import { z } from 'zod';
import { PolicyStoreError, PolicyValidationError } from './errors';
import { apiKeyKey, changesChannel } from './keys';
import { fieldIssues, formatPath, idSchema, nameSchema, typeError } from './names';

export type ApiKeyScope = 'check' | 'admin';

/** What the data plane knows of an API key (its secret is never stored, only its SHA-256). */
export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  /** Policy names the key may use; null = every policy of its tenant. */
  policies: string[] | null;
  /** `check`: check and inspect; `admin`: all that, and resetting an identifier's state. */
  scopes: ApiKeyScope[];
  /** Ms epoch after which the key is refused. */
  expiresAt?: number;
}

const apiKeyRecord = z.strictObject({
  id: idSchema,
  tenantId: idSchema,
  policies: z
    .array(nameSchema, typeError('must be an array of policy names or null'))
    .max(100, { error: 'must have at most 100 policy names' })
    .nullable(),
  scopes: z
    .array(z.enum(['check', 'admin'], { error: 'must be check or admin' }))
    .min(1, { error: 'must have at least one scope' })
    .refine((scopes) => new Set(scopes).size === scopes.length, { error: 'repeats a scope' }),
  expiresAt: z
    .number({ error: 'must be a ms epoch' })
    .int({ error: 'must be a ms epoch' })
    .min(1, { error: 'must be a ms epoch' })
    .max(8.64e15, { error: 'must be a ms epoch' })
    .optional(),
});

const SECRET_PREFIX = 'sk_live_';
const SECRET_CHARS = 32;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** `sk_live_` + 32 base62 characters from the CSPRNG (about 190 bits). */
export function generateApiKeySecret(): string {
  return SECRET_PREFIX + randomBase62(SECRET_CHARS);
}

/** SHA-256 hex of the secret's UTF-8 bytes: the only form of a key that is stored. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** 64 lowercase hex characters are taken as a hash already; anything else as a secret. */
function toHash(secretOrHash: string): string {
  return SHA256_HEX.test(secretOrHash) ? secretOrHash : hashApiKey(secretOrHash);
}

/**
 * Stores (or replaces) a key's record, expiring with the key, and sends the change message
 * in the same transaction. Returns the hash it is stored under.
 */
export async function putApiKey(
  redis: RedisLike,
  prefix: string,
  secretOrHash: string,
  record: ApiKeyRecord,
): Promise<string> {
  const parsed = apiKeyRecord.safeParse(record);
  if (!parsed.success) throw new PolicyValidationError(fieldIssues(parsed.error));
  const hash = toHash(secretOrHash);
  const key = apiKeyKey(prefix, hash);
  const value = JSON.stringify(parsed.data);
  const transaction = redis.multi();
  if (parsed.data.expiresAt === undefined) transaction.set(key, value);
  else transaction.set(key, value, 'PXAT', parsed.data.expiresAt);
  transaction.publish(changesChannel(prefix), JSON.stringify({ kind: 'api-key', hash }));
  await execTransaction(transaction, key);
  return hash;
}

/** Deletes a key's record and sends the change message; false when there was none. */
export async function revokeApiKey(
  redis: RedisLike,
  prefix: string,
  secretOrHash: string,
): Promise<boolean> {
  const hash = toHash(secretOrHash);
  const key = apiKeyKey(prefix, hash);
  const [deleted] = await execTransaction(
    redis
      .multi()
      .del(key)
      .publish(changesChannel(prefix), JSON.stringify({ kind: 'api-key', hash })),
    key,
  );
  return deleted === 1;
}

/** MULTI/EXEC replies, throwing the first command error (ioredis reports them per command). */
async function execTransaction(transaction: ChainableCommander, key: string): Promise<unknown[]> {
  const replies = await transaction.exec();
  if (!replies) throw new PolicyStoreError(key, 'transaction aborted');
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}

/** The key's record, undefined when none is stored (unknown, revoked or past its Redis expiry). */
export async function readApiKey(
  redis: RedisLike,
  prefix: string,
  secretOrHash: string,
): Promise<ApiKeyRecord | undefined> {
  const key = apiKeyKey(prefix, toHash(secretOrHash));
  const raw = await redis.get(key);
  if (raw === null) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new PolicyStoreError(key, 'API key record is not valid JSON');
  }
  const parsed = apiKeyRecord.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PolicyStoreError(
      key,
      `not an API key record: ${issue ? `${formatPath(issue.path)}: ${issue.message}` : 'invalid'}`,
    );
  }
  return parsed.data;
}
