/** Injection token of the app's one Prisma client (`@Inject(PRISMA) prisma: PrismaClient`). */
export const PRISMA = Symbol('PRISMA');
