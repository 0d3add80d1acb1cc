import { createTestDatabase, type TestDatabase } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from './client';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import { newId } from './ids';

describe('schema on a real PostgreSQL', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.url, { maxConnections: 2 });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function plan() {
    return prisma.plan.create({ data: { id: newId('plan'), slug: newId('plan'), name: 'Free' } });
  }

  it('stores a tenant with a policy and its rules', async () => {
    const { id: planId } = await plan();
    const tenant = await prisma.tenant.create({
      data: { id: newId('tenant'), slug: 'acme', name: 'Acme', planId },
    });
    await prisma.policy.create({
      data: {
        id: newId('policy'),
        name: 'api',
        tenantId: tenant.id,
        rules: {
          create: [
            {
              id: newId('rule'),
              name: 'burst',
              algorithm: 'token_bucket',
              params: { capacity: 5, refillPerSecond: 1 },
            },
          ],
        },
      },
    });
    const loaded = await prisma.tenant.findUniqueOrThrow({
      where: { slug: 'acme' },
      include: { policies: { include: { rules: true } } },
    });
    expect(loaded.status).toBe('active');
    expect(loaded.policies[0]?.rules[0]).toMatchObject({
      algorithm: 'token_bucket',
      params: { capacity: 5, refillPerSecond: 1 },
    });
  });

  it('refuses a policy owned by both a plan and a tenant, or by neither', async () => {
    const { id: planId } = await plan();
    const tenant = await prisma.tenant.create({
      data: { id: newId('tenant'), slug: newId('tenant'), name: 'T', planId },
    });
    await expect(
      prisma.policy.create({
        data: { id: newId('policy'), name: 'x', planId, tenantId: tenant.id },
      }),
    ).rejects.toThrow(/Policy_one_owner/);
    await expect(
      prisma.policy.create({ data: { id: newId('policy'), name: 'y' } }),
    ).rejects.toThrow(/Policy_one_owner/);
  });

  it('gives an operator no tenant and a tenant role exactly one', async () => {
    const user = await prisma.user.create({ data: { id: newId('user'), email: 'op@example.com' } });
    await prisma.membership.create({
      data: { id: newId('membership'), userId: user.id, role: 'operator' },
    });
    await expect(
      prisma.membership.create({
        data: { id: newId('membership'), userId: user.id, role: 'operator' },
      }),
    ).rejects.toThrow(/Membership_operator_key|Unique constraint/);
    await expect(
      prisma.membership.create({
        data: { id: newId('membership'), userId: user.id, role: 'tenant_admin' },
      }),
    ).rejects.toThrow(/Membership_role_scope/);
  });

  it('checks the control-plane rows: invitation scope, version reasons, outbox kinds, bounds', async () => {
    const { id: planId } = await plan();
    const tenant = await prisma.tenant.create({
      data: { id: newId('tenant'), slug: newId('tenant'), name: 'T', planId },
    });
    const inviter = await prisma.user.create({
      data: { id: newId('user'), email: `${newId('user')}@example.com` },
    });
    const invitation = (role: 'operator' | 'tenant_admin', tenantId: string | null) => ({
      id: newId('invitation'),
      email: 'new@example.com',
      role,
      tenantId,
      tokenHash: newId('invitation'),
      expiresAt: new Date(Date.now() + 60_000),
      createdById: inviter.id,
    });
    await prisma.invitation.create({ data: invitation('tenant_admin', tenant.id) });
    await prisma.invitation.create({ data: invitation('operator', null) });
    await expect(
      prisma.invitation.create({ data: invitation('operator', tenant.id) }),
    ).rejects.toThrow(/Invitation_role_scope/);
    await expect(
      prisma.invitation.create({ data: invitation('tenant_admin', null) }),
    ).rejects.toThrow(/Invitation_role_scope/);

    const version = (v: number, reason: string, rolledBackFrom?: number) => ({
      id: newId('policyVersion'),
      tenantId: tenant.id,
      version: v,
      content: { policies: [] },
      reason,
      rolledBackFrom: rolledBackFrom ?? null,
    });
    await prisma.policyVersion.create({ data: version(1, 'publish') });
    await prisma.policyVersion.create({ data: version(2, 'rollback', 1) });
    await expect(prisma.policyVersion.create({ data: version(2, 'publish') })).rejects.toThrow(
      /Unique constraint/,
    );
    await expect(prisma.policyVersion.create({ data: version(3, 'guess') })).rejects.toThrow(
      /PolicyVersion_reason/,
    );
    await expect(prisma.policyVersion.create({ data: version(3, 'rollback') })).rejects.toThrow(
      /PolicyVersion_rollback_source/,
    );
    await expect(prisma.policyVersion.create({ data: version(0, 'import') })).rejects.toThrow(
      /PolicyVersion_positive/,
    );

    const event = await prisma.outboxEvent.create({
      data: { tenantId: 'tnt_gone', kind: 'tenant-deleted' },
    });
    expect(event).toMatchObject({ attempts: 0, processedAt: null, id: expect.any(BigInt) });
    await expect(
      prisma.outboxEvent.create({ data: { tenantId: tenant.id, kind: 'policy' } }),
    ).rejects.toThrow(/OutboxEvent_kind/);

    const policy = await prisma.policy.create({
      data: { id: newId('policy'), name: 'api', planId },
    });
    const rule = (tenantBounds: Prisma.InputJsonValue) => ({
      id: newId('rule'),
      policyId: policy.id,
      name: newId('rule'),
      algorithm: 'token_bucket' as const,
      params: { capacity: 5, refillPerSecond: 1 },
      tenantBounds,
    });
    await prisma.rule.create({ data: rule({ capacity: { min: 1, max: 500 } }) });
    await expect(prisma.rule.create({ data: rule([1, 500]) })).rejects.toThrow(
      /Rule_tenantBounds_object/,
    );
  });
});
