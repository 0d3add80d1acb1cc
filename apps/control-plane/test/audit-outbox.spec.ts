import { createPrismaClient, type PrismaClient } from '@sluice/db';
import { createTestDatabase, type TestDatabase } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditActor, AuditService } from '../src/audit/audit.service';
import { OutboxService } from '../src/outbox/outbox.service';

let database: TestDatabase;
let prisma: PrismaClient;
const audit = new AuditService();
const outbox = new OutboxService();
const actor: AuditActor = { type: 'user', id: 'usr_test', requestId: 'req-1', ip: '203.0.113.7' };

beforeAll(async () => {
  database = await createTestDatabase();
  prisma = createPrismaClient(database.url, { maxConnections: 2 });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await database?.drop();
});

describe('audit and outbox writes', () => {
  it('commit with the transaction they are part of', async () => {
    await prisma.$transaction(async (tx) => {
      await audit.record(tx, actor, {
        action: 'tenant.update',
        entityType: 'Tenant',
        entityId: 'tnt_committed',
        tenantId: 'tnt_committed',
        before: { name: 'Old' },
        after: { name: 'New' },
      });
      await outbox.enqueue(tx, 'tnt_committed', 'tenant');
    });

    expect(
      await prisma.auditLog.findFirstOrThrow({ where: { entityId: 'tnt_committed' } }),
    ).toMatchObject({
      actorType: 'user',
      actorId: 'usr_test',
      requestId: 'req-1',
      ip: '203.0.113.7',
      tenantId: 'tnt_committed',
      action: 'tenant.update',
      before: { name: 'Old' },
      after: { name: 'New' },
    });
    expect(
      await prisma.outboxEvent.findFirstOrThrow({ where: { tenantId: 'tnt_committed' } }),
    ).toMatchObject({
      kind: 'tenant',
      attempts: 0,
      processedAt: null,
      lastError: null,
    });
  });

  it('leave no row when the mutation fails after writing them', async () => {
    await expect(
      prisma.$transaction(async (tx) => {
        await audit.record(tx, actor, {
          action: 'tenant.delete',
          entityType: 'Tenant',
          entityId: 'tnt_failed',
        });
        await outbox.enqueue(tx, 'tnt_failed', 'tenant-deleted');
        throw new Error('the mutation failed after its writes');
      }),
    ).rejects.toThrow('the mutation failed after its writes');

    expect(await prisma.auditLog.count({ where: { entityId: 'tnt_failed' } })).toBe(0);
    expect(await prisma.outboxEvent.count({ where: { tenantId: 'tnt_failed' } })).toBe(0);
  });

  it('keep absent before/after as SQL NULL', async () => {
    await audit.record(prisma, actor, {
      action: 'auth.logout',
      entityType: 'Session',
      entityId: 'ses_plain',
    });

    expect(
      await prisma.auditLog.findFirstOrThrow({ where: { entityId: 'ses_plain' } }),
    ).toMatchObject({
      before: null,
      after: null,
      tenantId: null,
    });
  });
});
