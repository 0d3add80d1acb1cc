import { createPrismaClient, newId, type PrismaClient } from '@sluice/db';
import { createTestDatabase, type TestDatabase } from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/auth/passwords';
import { EXIT, runCli } from '../src/operators/cli-program';

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase();
  prisma = createPrismaClient(database.url, { maxConnections: 2 });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await database?.drop();
});

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(
    argv,
    { DATABASE_URL: database.url, ...env },
    {
      write: (line) => out.push(line),
      error: (line) => err.push(line),
    },
  );
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('cli create-operator', () => {
  it('creates an operator with a generated password printed once, and refuses a second run', async () => {
    const first = await run(['create-operator', '--email', 'Root@Example.com']);

    expect(first.status).toBe(EXIT.ok);
    const password = /Password \(shown only now, store it safely\): (\S+)/.exec(first.out)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const user = await prisma.user.findUniqueOrThrow({
      where: { email: 'root@example.com' },
      include: { memberships: true },
    });
    expect(first.out).toContain(`Created operator root@example.com (${user.id}).`);
    expect(user.memberships).toEqual([
      expect.objectContaining({ role: 'operator', tenantId: null }),
    ]);
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user.passwordHash, password!)).toBe(true);
    expect(await prisma.auditLog.findFirst({ where: { entityId: user.id } })).toMatchObject({
      actorType: 'system',
      action: 'user.create_operator',
      after: { email: 'root@example.com', role: 'operator' },
    });

    const second = await run(['create-operator', '--email', 'root@example.com'], {
      SLUICE_OPERATOR_PASSWORD: 'another password entirely',
    });

    expect(second.status).toBe(EXIT.exists);
    expect(second.err).toBe(
      'A user with the email root@example.com already exists; nothing was changed.',
    );
    const after = await prisma.user.findUniqueOrThrow({ where: { email: 'root@example.com' } });
    expect(after.passwordHash).toBe(user.passwordHash);
  });

  it('takes the password from SLUICE_OPERATOR_PASSWORD without printing it', async () => {
    const result = await run(['create-operator', '--email', 'ops@example.com'], {
      SLUICE_OPERATOR_PASSWORD: 'a long enough secret',
    });

    expect(result.status).toBe(EXIT.ok);
    expect(result.out).not.toContain('a long enough secret');
    expect(result.out).toContain('Password: the one in SLUICE_OPERATOR_PASSWORD.');
    const user = await prisma.user.findUniqueOrThrow({ where: { email: 'ops@example.com' } });
    expect(await verifyPassword(user.passwordHash, 'a long enough secret')).toBe(true);
  });

  it('refuses bad input with distinct exit statuses', async () => {
    expect((await run([])).status).toBe(EXIT.usage);
    expect((await run(['create-operator'])).status).toBe(EXIT.usage);
    expect((await run(['create-operator', '--email', 'a@b.c', '--admin'])).status).toBe(EXIT.usage);
    expect(await run(['create-operator', '--email', 'not-an-email'])).toMatchObject({
      status: EXIT.dataError,
      err: 'Invalid email must be an email address.',
    });
    expect(
      await run(['create-operator', '--email', 'short@example.com'], {
        SLUICE_OPERATOR_PASSWORD: 'short',
      }),
    ).toMatchObject({
      status: EXIT.config,
      err: expect.stringContaining('SLUICE_OPERATOR_PASSWORD: must be at least 12 characters'),
    });
    expect(
      await prisma.user.count({ where: { email: { in: ['a@b.c', 'short@example.com'] } } }),
    ).toBe(0);
  });
});

describe('cli create-member', () => {
  it('makes a tenant admin (or viewer) of a tenant named by its slug, once', async () => {
    const plan = await prisma.plan.create({
      data: { id: newId('plan'), slug: 'cli-plan', name: 'P' },
    });
    const tenant = await prisma.tenant.create({
      data: { id: newId('tenant'), slug: 'cli-tenant', name: 'T', planId: plan.id },
    });
    const admin = await run(
      ['create-member', '--email', 'Admin@Example.com', '--tenant', 'cli-tenant', '--name', 'Ada'],
      { SLUICE_USER_PASSWORD: 'another long secret' },
    );
    expect(admin).toMatchObject({
      status: EXIT.ok,
      out: expect.stringContaining('Created admin admin@example.com of cli-tenant'),
    });
    expect(admin.out).toContain('Password: the one in SLUICE_USER_PASSWORD.');
    const user = await prisma.user.findUniqueOrThrow({
      where: { email: 'admin@example.com' },
      include: { memberships: true },
    });
    expect(user.name).toBe('Ada');
    expect(user.memberships).toEqual([
      expect.objectContaining({ role: 'tenant_admin', tenantId: tenant.id }),
    ]);
    expect(await verifyPassword(user.passwordHash, 'another long secret')).toBe(true);

    const viewer = await run([
      'create-member',
      '--email',
      'viewer@example.com',
      '--tenant',
      'cli-tenant',
      '--role',
      'viewer',
    ]);
    expect(viewer.status).toBe(EXIT.ok);
    expect(viewer.out).toMatch(/Password \(shown only now, store it safely\): \S{24}/);
    const viewerRow = await prisma.membership.findFirstOrThrow({
      where: { user: { email: 'viewer@example.com' } },
    });
    expect(viewerRow).toMatchObject({ role: 'tenant_viewer', tenantId: tenant.id });

    expect(
      (await run(['create-member', '--email', 'admin@example.com', '--tenant', 'cli-tenant']))
        .status,
    ).toBe(EXIT.exists);
    expect(
      await run(['create-member', '--email', 'x@example.com', '--tenant', 'nope']),
    ).toMatchObject({ status: EXIT.dataError, err: 'Invalid tenant nope does not exist.' });
    expect(
      (
        await run([
          'create-member',
          '--email',
          'x@example.com',
          '--tenant',
          'cli-tenant',
          '--role',
          'owner',
        ])
      ).status,
    ).toBe(EXIT.usage);
    expect((await run(['create-member', '--email', 'x@example.com'])).status).toBe(EXIT.usage);
    expect(await prisma.user.count({ where: { email: 'x@example.com' } })).toBe(0);
  });
});
