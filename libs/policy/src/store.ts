import type { RedisLike } from '@sluice/algorithms';
import { storedTenantConfig, type CompiledTenant, type UnpublishedTenant } from './compiled';
import { PolicyStoreError, PolicyValidationError, VersionConflictError } from './errors';
import { changesChannel, checkId, tenantKey } from './keys';
import { formatPath } from './names';
import { policyScripts } from './scripts';

/**
 * Stores a compiled tenant if its version is above the stored one (`next`: stored + 1) and sends
 * the change message in the same script. Returns what readers will now see.
 * Throws `VersionConflictError` for a version that is not above the stored one.
 */
export async function publishTenant(
  redis: RedisLike,
  prefix: string,
  tenant: UnpublishedTenant,
): Promise<CompiledTenant> {
  const { version, ...config } = tenant;
  if (version !== 'next' && (!Number.isSafeInteger(version) || version < 1)) {
    throw new PolicyValidationError([
      { path: 'version', message: `must be an integer >= 1 or 'next', got ${String(version)}` },
    ]);
  }
  const reply = await policyScripts.run(
    redis,
    'publish_tenant',
    [tenantKey(prefix, tenant.tenantId)],
    [String(version), JSON.stringify(config), changesChannel(prefix), tenant.tenantId],
  );
  const [stored, storedVersion = 0, publishedAt] = integers(
    reply,
    tenantKey(prefix, tenant.tenantId),
  );
  if (stored !== 1 || publishedAt === undefined) {
    throw new VersionConflictError(tenant.tenantId, Number(version), storedVersion);
  }
  return { ...config, version: storedVersion, publishedAt };
}

/** The tenant's compiled configuration, or undefined when none is published (or it was deleted). */
export async function readTenant(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
): Promise<CompiledTenant | undefined> {
  const key = tenantKey(prefix, tenantId);
  const [version = null, publishedAt = null, config = null] = await redis.hmget(
    key,
    'version',
    'publishedAt',
    'config',
  );
  if (config === null) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(config);
  } catch {
    throw new PolicyStoreError(key, 'config is not valid JSON');
  }
  const parsed = storedTenantConfig.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? formatPath(issue.path) : '';
    throw new PolicyStoreError(
      key,
      `config is not a compiled tenant: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`,
    );
  }
  if (parsed.data.tenantId !== tenantId) {
    throw new PolicyStoreError(key, `config belongs to tenant ${parsed.data.tenantId}`);
  }
  for (const [name, policy] of Object.entries(parsed.data.policies)) {
    if (policy.name !== name) {
      throw new PolicyStoreError(key, `policy ${JSON.stringify(name)} is named ${policy.name}`);
    }
  }
  return {
    ...parsed.data,
    version: storedInteger(key, 'version', version, 1),
    publishedAt: storedInteger(key, 'publishedAt', publishedAt, 0),
  };
}

/**
 * Stored versions (a deleted tenant's tombstone included), undefined where nothing is stored:
 * one HGET each, sent together (and valid on a Cluster, where the tenants live on many slots).
 */
export async function readTenantVersions(
  redis: RedisLike,
  prefix: string,
  tenantIds: readonly string[],
): Promise<Map<string, number | undefined>> {
  const keys = tenantIds.map((id) => tenantKey(prefix, id));
  const versions = await Promise.all(keys.map((key) => redis.hget(key, 'version')));
  return new Map(
    tenantIds.map((id, i) => {
      const version = versions[i] ?? null;
      return [
        id,
        version === null ? undefined : storedInteger(keys[i] ?? id, 'version', version, 1),
      ];
    }),
  );
}

/** Deletes the tenant's configuration (keeping its version) and sends the change message. */
export async function deleteTenant(
  redis: RedisLike,
  prefix: string,
  tenantId: string,
): Promise<boolean> {
  const reply = await policyScripts.run(
    redis,
    'delete_tenant',
    [tenantKey(prefix, tenantId)],
    [changesChannel(prefix), checkId('tenantId', tenantId)],
  );
  return reply === 1;
}

function storedInteger(key: string, field: string, value: string | null, min: number): number {
  const number = value === null ? NaN : Number(value);
  if (!Number.isSafeInteger(number) || number < min) {
    throw new PolicyStoreError(
      key,
      `${field} is ${JSON.stringify(value)}, not an integer >= ${min}`,
    );
  }
  return number;
}

function integers(reply: unknown, key: string): number[] {
  if (!Array.isArray(reply) || !reply.every((value) => Number.isSafeInteger(value))) {
    throw new PolicyStoreError(key, `script replied ${JSON.stringify(reply)}`);
  }
  return reply as number[];
}
