import { createTestDatabase, type TestDatabase } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from './client';
import type { PrismaClient } from './generated/prisma/client';
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
});
