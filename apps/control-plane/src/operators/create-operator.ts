import { newId, Prisma, type PrismaClient } from '@sluice/db';
import { AuditService, SYSTEM_ACTOR } from '../audit/audit.service';
import { emailSchema } from '../auth/email';
import { generatePassword, hashPassword, newPasswordSchema } from '../auth/passwords';

export class OperatorInputError extends Error {
  constructor(
    readonly field: 'email' | 'password',
    message: string,
  ) {
    super(`${field} ${message}`);
    this.name = 'OperatorInputError';
  }
}

export class OperatorExistsError extends Error {
  constructor(readonly email: string) {
    super(`A user with the email ${email} already exists; nothing was changed.`);
    this.name = 'OperatorExistsError';
  }
}

export interface CreatedOperator {
  id: string;
  email: string;
  password: string;
  /** The password was generated here: show it once, it is stored only as a hash. */
  generated: boolean;
}

/**
 * Creates a platform operator (a user with the `operator` membership), audited as the system.
 * Refuses an email that already has a user, so running it twice never resets a password.
 */
export async function createOperator(
  prisma: PrismaClient,
  options: { email: string; password?: string | undefined },
): Promise<CreatedOperator> {
  const email = emailSchema.safeParse(options.email);
  if (!email.success)
    throw new OperatorInputError('email', email.error.issues[0]?.message ?? 'is invalid');
  const generated = options.password === undefined;
  const password = options.password ?? generatePassword();
  const valid = newPasswordSchema.safeParse(password);
  if (!valid.success)
    throw new OperatorInputError('password', valid.error.issues[0]?.message ?? 'is invalid');

  const passwordHash = await hashPassword(password);
  const id = newId('user');
  try {
    await prisma.$transaction(async (tx) => {
      if (await tx.user.findUnique({ where: { email: email.data }, select: { id: true } })) {
        throw new OperatorExistsError(email.data);
      }
      await tx.user.create({
        data: {
          id,
          email: email.data,
          passwordHash,
          passwordChangedAt: new Date(),
          memberships: { create: { id: newId('membership'), role: 'operator' } },
        },
      });
      await new AuditService().record(tx, SYSTEM_ACTOR, {
        action: 'user.create_operator',
        entityType: 'User',
        entityId: id,
        after: { email: email.data, role: 'operator' },
      });
    });
  } catch (error) {
    // a concurrent run created the same email between the lookup and the insert
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new OperatorExistsError(email.data);
    }
    throw error;
  }
  return { id, email: email.data, password, generated };
}
