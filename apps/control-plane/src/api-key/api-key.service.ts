import { Inject, Injectable } from '@nestjs/common';
import { type ApiKey as ApiKeyRow, newId, type Prisma, type PrismaClient } from '@sluice/db';
import { RedisService } from '@sluice/nest-kit';
import { type ApiKeyScope, generateApiKeySecret, hashApiKey, NAME_PATTERN } from '@sluice/policy';
import { readKeyLastUsed } from '@sluice/usage';
import { z } from 'zod';
import { TenantAccessService } from '../access/tenant-access.service';
import { type AuditActor, AuditService } from '../audit/audit.service';
import type { AccessAction } from '../access/access.service';
import type { AuthUser } from '../auth/auth-user';
import { PRISMA } from '../database/prisma.token';
import { ENV, type Env } from '../env';
import { AppError } from '../graphql/app-error';
import { parseInput } from '../graphql/input';
import { type Connection, type PageArgs, pageQuery, toConnection } from '../graphql/pagination';
import { OutboxService } from '../outbox/outbox.service';
import type { ApiKeyFilter, CreateApiKeyInput, UpdateApiKeyInput } from './models/api-key.inputs';
import type { ApiKey, ApiKeySecretPayload, ApiKeyStatus } from './models/api-key.model';

/** `sk_live_` and the secret's first 4 characters: enough to tell keys apart, useless to guess. */
const VISIBLE_PREFIX_LENGTH = 'sk_live_'.length + 4;
const MAX_KEY_NAME_LENGTH = 100;
const MAX_POLICY_NAMES = 100;
const SCOPES = ['check', 'admin'] as const satisfies readonly ApiKeyScope[];
const DEFAULT_SCOPES: ApiKeyScope[] = ['check'];
const NO_SUCH_KEY = 'No such API key.';
const NOT_NULL = { error: 'cannot be null; leave it out to keep it as it is' };

const unique = (values: readonly string[]) => new Set(values).size === values.length;

const nameSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(MAX_KEY_NAME_LENGTH, `must be at most ${MAX_KEY_NAME_LENGTH} characters`);
const policyNamesSchema = z
  .array(z.string().regex(NAME_PATTERN, { error: `must match ${NAME_PATTERN.source}` }))
  .max(MAX_POLICY_NAMES, `must have at most ${MAX_POLICY_NAMES} policy names`)
  .refine(unique, { error: 'names a policy twice' });
const scopesSchema = z
  .array(z.enum(SCOPES, { error: 'must be CHECK or ADMIN' }))
  .min(1, 'must have at least one scope')
  .refine(unique, { error: 'names a scope twice' });
const futureSchema = z
  .date()
  .refine((date) => date.getTime() > Date.now(), { error: 'must be in the future' });

const createSchema = z.object({
  tenantId: z.string().min(1, 'is required'),
  name: nameSchema,
  policyNames: policyNamesSchema.nullish(),
  scopes: scopesSchema.nullish(),
  expiresAt: futureSchema.nullish(),
});

const updateSchema = z.object({
  id: z.string().min(1, 'is required'),
  name: z.string(NOT_NULL).pipe(nameSchema).optional(),
  policyNames: z.array(z.string(), NOT_NULL).pipe(policyNamesSchema).optional(),
  scopes: z.array(z.string(), NOT_NULL).pipe(scopesSchema).optional(),
  // null clears the expiry
  expiresAt: futureSchema.nullable().optional(),
});

/** The rows of keys in `status` at `now` (the data plane refuses a key from its expiry on). */
function statusWhere(status: ApiKeyStatus, now: Date): Prisma.ApiKeyWhereInput {
  switch (status) {
    case 'revoked':
      return { revokedAt: { not: null } };
    case 'expired':
      return { revokedAt: null, expiresAt: { lte: now } };
    case 'active':
      return { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  }
}

const filterSchema = z.object({
  revoked: z.boolean().nullish(),
  status: z.enum(['active', 'expired', 'revoked']).nullish(),
  search: z.string().trim().max(100, 'must be at most 100 characters').nullish(),
});

function isScope(value: string): value is ApiKeyScope {
  return (SCOPES as readonly string[]).includes(value);
}

/** What the audit log keeps of a key: its settings, never its hash. */
function auditView(row: ApiKeyRow) {
  return {
    name: row.name,
    prefix: row.prefix,
    policyNames: row.policyNames,
    scopes: row.scopes,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The key as the API shows it; `redisLastUsed` is the data plane's record (ms), if any. */
function toApiKey(row: ApiKeyRow, redisLastUsed: number | undefined): ApiKey {
  const stored = row.lastUsedAt?.getTime();
  const latest = Math.max(stored ?? -Infinity, redisLastUsed ?? -Infinity);
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    prefix: row.prefix,
    policyNames: row.policyNames,
    scopes: row.scopes.filter(isScope),
    lastUsedAt: Number.isFinite(latest) ? new Date(latest) : null,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    createdAt: row.createdAt,
  };
}

function newSecret(): { secret: string; hash: string; prefix: string } {
  const secret = generateApiKeySecret();
  return { secret, hash: hashApiKey(secret), prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH) };
}

/**
 * API keys of tenants. Every change writes the row, its audit entry and an outbox event in one
 * transaction; the relay then publishes the tenant's keys from PostgreSQL to Redis.
 *
 * Access as everywhere in the API (TenantAccessService): a key or tenant the caller may not read
 * is NOT_FOUND, like one that does not exist, so other tenants' ids reveal nothing; one it may
 * read but not change (a viewer's) is FORBIDDEN.
 */
@Injectable()
export class ApiKeyService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(ENV) private readonly env: Env,
    private readonly redis: RedisService,
    private readonly tenantAccess: TenantAccessService,
    private readonly audit: AuditService,
    private readonly outbox: OutboxService,
  ) {}

  async list(
    user: AuthUser,
    tenantId: string,
    filter: ApiKeyFilter | null | undefined,
    page: PageArgs,
  ): Promise<Connection<ApiKey>> {
    const query = pageQuery(page);
    const { revoked, status, search } = parseInput(filterSchema, filter ?? {}, 'filter');
    await this.tenantAccess.tenant(user, tenantId, 'read');
    const where: Prisma.ApiKeyWhereInput = {
      tenantId,
      AND: [
        revoked === true ? { revokedAt: { not: null } } : {},
        revoked === false ? { revokedAt: null } : {},
        status ? statusWhere(status, new Date()) : {},
      ],
      ...(search
        ? {
            OR: [
              { name: { contains: search, mode: 'insensitive' } },
              { prefix: { startsWith: search } },
            ],
          }
        : {}),
    };
    const [rows, totalCount, lastUsed] = await Promise.all([
      this.prisma.apiKey.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: query.take,
        ...(query.after ? { cursor: { id: query.after }, skip: 1 } : {}),
      }),
      this.prisma.apiKey.count({ where }),
      this.lastUsed(tenantId),
    ]);
    const keys = rows.map((row) => toApiKey(row, lastUsed.get(row.id)));
    return toConnection(keys, query, totalCount, (key) => key.id);
  }

  async get(user: AuthUser, id: string): Promise<ApiKey> {
    const row = await this.accessible(this.prisma, user, id, 'read');
    return this.withLastUsed(row);
  }

  async create(
    user: AuthUser,
    actor: AuditActor,
    input: CreateApiKeyInput,
  ): Promise<ApiKeySecretPayload> {
    const data = parseInput(createSchema, input, 'input');
    await this.tenantAccess.tenant(user, data.tenantId, 'write');
    const { secret, hash, prefix } = newSecret();
    const row = await this.prisma.$transaction(async (tx) => {
      const created = await tx.apiKey.create({
        data: {
          id: newId('apiKey'),
          tenantId: data.tenantId,
          name: data.name,
          prefix,
          hash,
          policyNames: data.policyNames ?? [],
          scopes: data.scopes ?? DEFAULT_SCOPES,
          expiresAt: data.expiresAt ?? null,
        },
      });
      await this.audit.record(tx, actor, {
        action: 'api_key.create',
        entityType: 'ApiKey',
        entityId: created.id,
        tenantId: created.tenantId,
        after: auditView(created),
      });
      await this.outbox.enqueue(tx, created.tenantId, 'tenant');
      return created;
    });
    return { apiKey: toApiKey(row, undefined), secret };
  }

  async update(user: AuthUser, actor: AuditActor, input: UpdateApiKeyInput): Promise<ApiKey> {
    const data = parseInput(updateSchema, input, 'input');
    const row = await this.prisma.$transaction(async (tx) => {
      const before = await this.lockForWrite(tx, user, data.id);
      if (before.revokedAt) {
        throw AppError.conflict(
          'This API key is revoked and cannot change; create a new one.',
          'input.id',
        );
      }
      const after = await tx.apiKey.update({
        where: { id: before.id },
        data: {
          ...(data.name === undefined ? {} : { name: data.name }),
          ...(data.policyNames === undefined ? {} : { policyNames: data.policyNames }),
          ...(data.scopes === undefined ? {} : { scopes: data.scopes }),
          ...(data.expiresAt === undefined ? {} : { expiresAt: data.expiresAt }),
        },
      });
      await this.audit.record(tx, actor, {
        action: 'api_key.update',
        entityType: 'ApiKey',
        entityId: after.id,
        tenantId: after.tenantId,
        before: auditView(before),
        after: auditView(after),
      });
      await this.outbox.enqueue(tx, after.tenantId, 'tenant');
      return after;
    });
    return this.withLastUsed(row);
  }

  /** Idempotent: revoking a revoked key answers it as it is and writes nothing. */
  async revoke(user: AuthUser, actor: AuditActor, id: string): Promise<ApiKey> {
    const row = await this.prisma.$transaction(async (tx) => {
      const before = await this.lockForWrite(tx, user, id);
      if (before.revokedAt) return before;
      const after = await tx.apiKey.update({
        where: { id: before.id },
        data: { revokedAt: new Date() },
      });
      await this.audit.record(tx, actor, {
        action: 'api_key.revoke',
        entityType: 'ApiKey',
        entityId: after.id,
        tenantId: after.tenantId,
        before: auditView(before),
        after: auditView(after),
      });
      await this.outbox.enqueue(tx, after.tenantId, 'tenant');
      return after;
    });
    return this.withLastUsed(row);
  }

  /** A new key with the old one's settings and a new secret; the old one is revoked at once. */
  async rotate(user: AuthUser, actor: AuditActor, id: string): Promise<ApiKeySecretPayload> {
    const { secret, hash, prefix } = newSecret();
    const row = await this.prisma.$transaction(async (tx) => {
      const before = await this.lockForWrite(tx, user, id);
      if (before.revokedAt) {
        throw AppError.conflict('This API key is revoked; create a new one instead.', 'id');
      }
      if (before.expiresAt && before.expiresAt.getTime() <= Date.now()) {
        throw AppError.conflict(
          'This API key has expired; give it a new expiresAt with updateApiKey first, or create a new one.',
          'id',
        );
      }
      const revoked = await tx.apiKey.update({
        where: { id: before.id },
        data: { revokedAt: new Date() },
      });
      const created = await tx.apiKey.create({
        data: {
          id: newId('apiKey'),
          tenantId: before.tenantId,
          name: before.name,
          prefix,
          hash,
          policyNames: before.policyNames,
          scopes: before.scopes,
          expiresAt: before.expiresAt,
        },
      });
      await this.audit.record(tx, actor, {
        action: 'api_key.rotate',
        entityType: 'ApiKey',
        entityId: before.id,
        tenantId: before.tenantId,
        before: auditView(before),
        after: { ...auditView(revoked), replacedById: created.id },
      });
      await this.audit.record(tx, actor, {
        action: 'api_key.create',
        entityType: 'ApiKey',
        entityId: created.id,
        tenantId: created.tenantId,
        after: { ...auditView(created), rotatedFromId: before.id },
      });
      await this.outbox.enqueue(tx, created.tenantId, 'tenant');
      return created;
    });
    return { apiKey: toApiKey(row, undefined), secret };
  }

  /** The key if it exists (in a live tenant) and the caller may do `action` to it. */
  private async accessible(
    db: Prisma.TransactionClient,
    user: AuthUser,
    id: string,
    action: AccessAction,
  ): Promise<ApiKeyRow> {
    const found = await db.apiKey.findUnique({
      where: { id },
      include: { tenant: { select: { deletedAt: true } } },
    });
    if (!found || found.tenant.deletedAt) throw AppError.notFound(NO_SUCH_KEY);
    this.tenantAccess.check(user, found.tenantId, action, NO_SUCH_KEY);
    const { tenant: _tenant, ...row } = found;
    return row;
  }

  /**
   * The key, locked for the rest of the transaction (concurrent changes of one key queue up,
   * so two rotations cannot both succeed), if the caller may change it.
   */
  private async lockForWrite(
    tx: Prisma.TransactionClient,
    user: AuthUser,
    id: string,
  ): Promise<ApiKeyRow> {
    await tx.$queryRaw`SELECT id FROM "ApiKey" WHERE id = ${id} FOR UPDATE`;
    return this.accessible(tx, user, id, 'write');
  }

  /** Key id → last use (ms) as the data plane records it in Redis. */
  private async lastUsed(tenantId: string): Promise<Map<string, number>> {
    const uses = await readKeyLastUsed(this.redis.client, this.env.SLUICE_KEY_PREFIX, tenantId);
    return new Map(uses.map((use) => [use.keyId, use.lastUsedAt]));
  }

  private async withLastUsed(row: ApiKeyRow): Promise<ApiKey> {
    return toApiKey(row, (await this.lastUsed(row.tenantId)).get(row.id));
  }
}
