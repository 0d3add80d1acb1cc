import type { RedisLike } from '@sluice/algorithms';
import { fieldIssues, ID_PATTERN } from '@sluice/policy';
import type { ChainableCommander } from 'ioredis';
import { z } from 'zod';
import { WebhookInputError, WebhookStoreError } from './errors';
import {
  checkId,
  ENABLED_ENDPOINTS_FIELD,
  endpointIndexKey,
  endpointKeys,
  endpointsKey,
} from './keys';
import { webhookEndpointFields } from './settings';

/** An endpoint as PostgreSQL holds it (the `WebhookEndpoint` row): what the relay publishes. */
export interface WebhookEndpointRecord {
  id: string;
  tenantId: string;
  name: string;
  url: string;
  leakRatePerSec: number;
  queueCapacity: number;
  maxAttempts: number;
  enabled: boolean;
  pausedUntil: Date | null;
  secretCiphertext: Uint8Array;
  previousSecretCiphertext?: Uint8Array | null;
  previousSecretExpiresAt?: Date | null;
}

const msEpoch = z.int().min(0).max(8.64e15);

const publishedEndpoint = z.strictObject({
  id: z.string().regex(ID_PATTERN),
  tenantId: z.string().regex(ID_PATTERN),
  ...webhookEndpointFields,
  /** Nothing is sent before this (ms epoch), as the control plane set it; null: not paused. */
  pausedUntil: msEpoch.nullable(),
  /** The signing secret's ciphertext (`encryptSecret`), base64; never the secret itself. */
  secret: z.base64().min(1),
  /** After a rotation: the previous secret, signed with as well until `expiresAt` (ms epoch). */
  previousSecret: z.strictObject({ secret: z.base64().min(1), expiresAt: msEpoch }).nullable(),
});

/**
 * What intake and the worker read of an endpoint in Redis: its settings, and its secret only as
 * ciphertext (the worker alone holds the key that decrypts it).
 */
export type PublishedEndpoint = z.infer<typeof publishedEndpoint>;

export interface PublishOutcome {
  written: number;
  /** Endpoints published before and gone now: their queue state was deleted. */
  removed: string[];
}

/** The Redis copy of one row; the secret stays ciphertext. */
export function toPublishedEndpoint(record: WebhookEndpointRecord): PublishedEndpoint {
  const previous =
    record.previousSecretCiphertext && record.previousSecretExpiresAt
      ? {
          secret: Buffer.from(record.previousSecretCiphertext).toString('base64'),
          expiresAt: record.previousSecretExpiresAt.getTime(),
        }
      : null;
  const candidate = {
    id: record.id,
    tenantId: record.tenantId,
    name: record.name,
    url: record.url,
    leakRatePerSec: record.leakRatePerSec,
    queueCapacity: record.queueCapacity,
    maxAttempts: record.maxAttempts,
    enabled: record.enabled,
    pausedUntil: record.pausedUntil?.getTime() ?? null,
    secret: Buffer.from(record.secretCiphertext).toString('base64'),
    previousSecret: previous,
  };
  const parsed = publishedEndpoint.safeParse(candidate);
  if (!parsed.success) {
    throw new WebhookInputError(
      fieldIssues(parsed.error).map((issue) => ({
        path: `endpoints[${record.id}].${issue.path}`,
        message: issue.message,
      })),
    );
  }
  return parsed.data;
}

/**
 * Makes Redis hold exactly these endpoints of the tenant (its `WebhookEndpoint` rows; `[]` when
 * the tenant is deleted): the settings intake and the worker read, replaced in one transaction.
 * The queue state of endpoints that are gone (pending and dead event ids, counters, schedules)
 * is deleted; their jobs are dropped when the worker picks them up. Idempotent: the outbox relay
 * calls it with the tenant's compiled config, and may call it again.
 */
export async function publishWebhookEndpoints(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  endpoints: readonly WebhookEndpointRecord[],
): Promise<PublishOutcome> {
  checkId('tenantId', tenantId);
  const published = endpoints.map((record) => {
    if (record.tenantId !== tenantId) {
      throw new WebhookInputError([
        { path: `endpoints[${record.id}].tenantId`, message: `must be ${tenantId}` },
      ]);
    }
    return toPublishedEndpoint(record);
  });
  const key = endpointsKey(prefix, tenantId);
  const before = new Set(
    (await redis.hkeys(key)).filter((field) => field.startsWith('id:')).map((f) => f.slice(3)),
  );
  const transaction = redis.multi().del(key);
  for (const endpoint of published) {
    const json = JSON.stringify(endpoint);
    transaction.hset(key, `id:${endpoint.id}`, json, `name:${endpoint.name}`, json);
  }
  const enabled = published.filter((endpoint) => endpoint.enabled).length;
  if (enabled > 0) transaction.hset(key, ENABLED_ENDPOINTS_FIELD, enabled);
  await execTransaction(transaction, key);

  const index = endpointIndexKey(prefix);
  const now = new Set(published.map((endpoint) => endpoint.id));
  const removed = [...before].filter((id) => !now.has(id));
  if (published.length > 0) {
    await redis.sadd(index, ...published.map((endpoint) => `${tenantId}/${endpoint.id}`));
  }
  if (removed.length > 0) {
    await redis.srem(index, ...removed.map((id) => `${tenantId}/${id}`));
    // one endpoint's keys share a slot; two endpoints' may not
    for (const id of removed) {
      await redis.del(...Object.values(endpointKeys(prefix, tenantId, id)));
    }
  }
  return { written: published.length, removed };
}

/**
 * The endpoint of the tenant named by `ref`, its id or its name; undefined when the tenant has
 * none such (another tenant's endpoints are never found: they live under their tenant's key).
 */
export async function readWebhookEndpoint(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
  ref: string,
): Promise<PublishedEndpoint | undefined> {
  const key = endpointsKey(prefix, tenantId);
  const [byId = null, byName = null] = await redis.hmget(key, `id:${ref}`, `name:${ref}`);
  const raw = byId ?? byName;
  return raw === null ? undefined : parseStoredEndpoint(key, tenantId, ref, raw);
}

/**
 * Every published endpoint of the tenant (enabled or not), by id; `[]` when it has none. One
 * HGETALL of the tenant's hash: what Sluice's own events read to reach all of a tenant's endpoints.
 */
export async function listTenantEndpoints(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
): Promise<PublishedEndpoint[]> {
  const key = endpointsKey(prefix, tenantId);
  const fields = await redis.hgetall(key);
  return Object.entries(fields)
    .filter(([field]) => field.startsWith('id:'))
    .map(([field, raw]) => parseStoredEndpoint(key, tenantId, field.slice(3), raw))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function parseStoredEndpoint(
  key: string,
  tenantId: string,
  ref: string,
  raw: string,
): PublishedEndpoint {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new WebhookStoreError(key, `endpoint ${ref} is not valid JSON`);
  }
  const parsed = publishedEndpoint.safeParse(json);
  if (!parsed.success) {
    const issue = fieldIssues(parsed.error)[0];
    throw new WebhookStoreError(
      key,
      `not a published endpoint: ${issue ? `${issue.path}: ${issue.message}` : 'invalid'}`,
    );
  }
  if (parsed.data.tenantId !== tenantId) {
    throw new WebhookStoreError(key, `endpoint ${ref} belongs to tenant ${parsed.data.tenantId}`);
  }
  return parsed.data;
}

/** Every published endpoint of every tenant, as `{ tenantId, endpointId }` (for /metrics). */
export async function listPublishedEndpoints(
  redis: RedisLike,
  prefix: string,
): Promise<{ tenantId: string; endpointId: string }[]> {
  const members = await redis.smembers(endpointIndexKey(prefix));
  return members.flatMap((member) => {
    const [tenantId, endpointId, ...rest] = member.split('/');
    if (!tenantId || !endpointId || rest.length > 0) return [];
    return [{ tenantId, endpointId }];
  });
}

/** MULTI/EXEC replies, throwing the first command error (ioredis reports them per command). */
async function execTransaction(transaction: ChainableCommander, key: string): Promise<unknown[]> {
  const replies = await transaction.exec();
  if (!replies) throw new WebhookStoreError(key, 'transaction aborted');
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
