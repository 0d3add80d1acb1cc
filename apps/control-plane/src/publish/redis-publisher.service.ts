import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import {
  compileTenant,
  deleteTenant,
  publishTenant,
  putApiKey,
  readApiKey,
  readTenantVersions,
  revokeApiKey,
  VersionConflictError,
  type ApiKeyRecord,
  type ApiKeyScope,
} from '@sluice/policy';
import { keyLastUsedKey } from '@sluice/usage';
import { publishWebhookEndpoints } from '@sluice/webhooks';
import { isDeepStrictEqual } from 'node:util';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { PolicyVersionsService, type VersionContent } from './policy-versions.service';

/** What one publish did, for logs and tests. */
export interface PublishOutcome {
  tenantId: string;
  /** The version Redis holds now; undefined when the tenant is gone. */
  version: number | undefined;
  /** Whether the configuration was written (false: Redis had this version already). */
  configWritten: boolean;
  keysWritten: number;
  keysRemoved: number;
  /** Webhook endpoints now in Redis (their settings, the signing secret as ciphertext). */
  webhookEndpoints: number;
  deleted: boolean;
}

/** Keys of a tenant's counters and usage, by pattern (SCAN; single-node Redis, see docs). */
function counterPatterns(prefix: string, tenantId: string): string[] {
  const glob = prefix.replace(/[*?[\]\\]/g, '\\$&');
  return [
    `${glob}rl:{${tenantId}.*`,
    `${glob}usage:{${tenantId}}:*`,
    `${glob}decisions:{${tenantId}}:*`,
    `${glob}quota-alert:{${tenantId}}:*`,
  ];
}

/**
 * Makes Redis hold what PostgreSQL says of one tenant: its latest version's compiled policies,
 * its API keys' records and its webhook endpoints' settings, or nothing at all once it is
 * deleted. Idempotent, so the relay can retry and the reconciler can repeat it.
 */
@Injectable()
export class RedisPublisher {
  private readonly logger = new Logger(RedisPublisher.name);

  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly redis: RedisService,
    private readonly versions: PolicyVersionsService,
    @Inject(ENV) private readonly env: Env,
  ) {}

  private get prefix(): string {
    return this.env.SLUICE_KEY_PREFIX;
  }

  async publish(tenantId: string): Promise<PublishOutcome> {
    const tenant = await this.prisma.tenant.findUnique({
      where: { id: tenantId },
      select: { id: true, deletedAt: true },
    });
    if (!tenant || tenant.deletedAt) return this.remove(tenantId);

    let latest = await this.latestVersion(tenantId);
    if (!latest) {
      // a tenant written without the API (a seed, a restore): its first version is made here
      await this.prisma.$transaction((tx) =>
        this.versions.commit(tx, tenantId, { enqueue: false }),
      );
      latest = await this.latestVersion(tenantId);
      if (!latest) throw new Error(`tenant ${tenantId} has no version to publish`);
    }
    const { written: configWritten, version } = await this.publishConfig(
      tenantId,
      latest.version,
      latest.content,
    );
    const keys = await this.publishKeys(tenantId);
    const endpoints = await publishWebhookEndpoints(
      this.redis.client,
      this.prefix,
      tenantId,
      await this.prisma.webhookEndpoint.findMany({ where: { tenantId } }),
    );
    return {
      tenantId,
      version,
      configWritten,
      ...keys,
      webhookEndpoints: endpoints.written,
      deleted: false,
    };
  }

  private async latestVersion(tenantId: string) {
    const row = await this.prisma.policyVersion.findFirst({
      where: { tenantId },
      orderBy: { version: 'desc' },
      select: { version: true, content: true },
    });
    return row && { version: row.version, content: row.content as unknown as VersionContent };
  }

  /**
   * Writes version `version` unless Redis holds it already; answers the version Redis now holds. Redis holding a higher one (written
   * by something else, e.g. a database restored from a backup) is answered by a new version
   * above it with the same content: versions only grow, and Redis must end up with ours.
   */
  private async publishConfig(
    tenantId: string,
    version: number,
    content: VersionContent,
  ): Promise<{ written: boolean; version: number }> {
    const stored = (await readTenantVersions(this.redis.client, this.prefix, [tenantId])).get(
      tenantId,
    );
    if (stored === version) return { written: false, version };
    let target = version;
    if (stored !== undefined && stored > version) {
      target = stored + 1;
      await this.prisma.$transaction((tx) =>
        this.versions.write(tx, tenantId, target, content, {
          reason: 'publish',
          rolledBackFrom: null,
          createdById: null,
        }),
      );
      this.logger.warn(
        `tenant ${tenantId}: Redis held version ${stored} above ours (${version}); published as ${target}`,
      );
    }
    try {
      await publishTenant(this.redis.client, this.prefix, compileTenant(content.config, target));
      return { written: true, version: target };
    } catch (error) {
      // another control plane published the same version meanwhile
      if (error instanceof VersionConflictError && error.stored === target) {
        return { written: false, version: target };
      }
      throw error;
    }
  }

  /** Every live key's record as it should be, and no record for a revoked or expired key. */
  private async publishKeys(
    tenantId: string,
  ): Promise<{ keysWritten: number; keysRemoved: number }> {
    const keys = await this.prisma.apiKey.findMany({
      where: { tenantId },
      select: {
        id: true,
        hash: true,
        policyNames: true,
        scopes: true,
        expiresAt: true,
        revokedAt: true,
      },
    });
    const now = Date.now();
    let keysWritten = 0;
    let keysRemoved = 0;
    for (const key of keys) {
      const stored = await readApiKey(this.redis.client, this.prefix, key.hash);
      const live = key.revokedAt === null && (key.expiresAt === null || +key.expiresAt > now);
      if (!live) {
        if (stored && (await revokeApiKey(this.redis.client, this.prefix, key.hash))) {
          keysRemoved += 1;
        }
        continue;
      }
      const record: ApiKeyRecord = {
        id: key.id,
        tenantId,
        policies: key.policyNames.length > 0 ? key.policyNames : null,
        scopes: (key.scopes.length > 0 ? key.scopes : ['check']) as ApiKeyScope[],
        ...(key.expiresAt && { expiresAt: +key.expiresAt }),
      };
      if (isDeepStrictEqual(stored, record)) continue;
      await putApiKey(this.redis.client, this.prefix, key.hash, record);
      keysWritten += 1;
    }
    return { keysWritten, keysRemoved };
  }

  /**
   * A deleted tenant: its compiled policies (leaving the version as a tombstone, so no stale
   * publish can bring it back), its keys, counters and usage go from Redis, then its rows from
   * PostgreSQL (the audit log stays: it has no foreign key to the tenant).
   */
  private async remove(tenantId: string): Promise<PublishOutcome> {
    const client = this.redis.client;
    await deleteTenant(client, this.prefix, tenantId);
    // no endpoint left: their settings and queue state go
    await publishWebhookEndpoints(client, this.prefix, tenantId, []);
    const keys = await this.prisma.apiKey.findMany({ where: { tenantId }, select: { hash: true } });
    let keysRemoved = 0;
    for (const key of keys) {
      if (await revokeApiKey(client, this.prefix, key.hash)) keysRemoved += 1;
    }
    for (const pattern of counterPatterns(this.prefix, tenantId)) {
      let cursor = '0';
      do {
        const [next, found] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (found.length > 0) await client.unlink(...found);
      } while (cursor !== '0');
    }
    await client.unlink(keyLastUsedKey(this.prefix, tenantId));
    await this.prisma.tenant.deleteMany({ where: { id: tenantId, deletedAt: { not: null } } });
    return {
      tenantId,
      version: undefined,
      configWritten: false,
      keysWritten: 0,
      keysRemoved,
      webhookEndpoints: 0,
      deleted: true,
    };
  }
}
