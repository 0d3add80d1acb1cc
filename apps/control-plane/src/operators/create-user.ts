import { newId, Prisma, type PrismaClient, type Role } from '@sluice/db';
import { AuditService, SYSTEM_ACTOR } from '../audit/audit.service';
import { emailSchema } from '../auth/email';
import { generatePassword, hashPassword, newPasswordSchema } from '../auth/passwords';

export class UserInputError extends Error {
  constructor(
    readonly field: 'email' | 'password' | 'name' | 'tenant',
    message: string,
  ) {
    super(`${field} ${message}`);
    this.name = 'UserInputError';
  }
}

export class UserExistsError extends Error {
  constructor(readonly email: string) {
    super(`A user with the email ${email} already exists; nothing was changed.`);
    this.name = 'UserExistsError';
  }
}

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
  /** The password was generated here: show it once, it is stored only as a hash. */
  generated: boolean;
}

export interface NewUser {
  email: string;
  password?: string | undefined;
  name?: string | undefined;
  role: Role;
  /** The tenant's slug, for a tenant role. */
  tenant?: string | undefined;
}

/**
 * Creates a user with one membership (an operator, or a member of a tenant), audited as the
 * system. Refuses an email that already has a user, so running it twice never resets a password.
 */
export async function createUser(prisma: PrismaClient, options: NewUser): Promise<CreatedUser> {
  const email = emailSchema.safeParse(options.email);
  if (!email.success)
    throw new UserInputError('email', email.error.issues[0]?.message ?? 'is invalid');
  const name = (options.name ?? '').trim();
  if (name.length > 100) throw new UserInputError('name', 'must be at most 100 characters');
  const generated = options.password === undefined;
  const password = options.password ?? generatePassword();
  const valid = newPasswordSchema.safeParse(password);
  if (!valid.success)
    throw new UserInputError('password', valid.error.issues[0]?.message ?? 'is invalid');

  const passwordHash = await hashPassword(password);
  const id = newId('user');
  try {
    await prisma.$transaction(async (tx) => {
      if (await tx.user.findUnique({ where: { email: email.data }, select: { id: true } })) {
        throw new UserExistsError(email.data);
      }
      let tenantId: string | null = null;
      if (options.role !== 'operator') {
        const tenant = await tx.tenant.findFirst({
          where: { slug: options.tenant ?? '', deletedAt: null },
          select: { id: true },
        });
        if (!tenant) throw new UserInputError('tenant', `${options.tenant ?? ''} does not exist`);
        tenantId = tenant.id;
      }
      await tx.user.create({
        data: {
          id,
          email: email.data,
          name,
          passwordHash,
          passwordChangedAt: new Date(),
          memberships: { create: { id: newId('membership'), role: options.role, tenantId } },
        },
      });
      await new AuditService().record(tx, SYSTEM_ACTOR, {
        action: options.role === 'operator' ? 'user.create_operator' : 'user.create_member',
        entityType: 'User',
        entityId: id,
        ...(tenantId && { tenantId }),
        after: { email: email.data, role: options.role, ...(tenantId && { tenantId }) },
      });
    });
  } catch (error) {
    // a concurrent run created the same email between the lookup and the insert
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new UserExistsError(email.data);
    }
    throw error;
  }
  return { id, email: email.data, password, generated };
}
