import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createPrismaClient, type PrismaClient } from '@sluice/db';
import { ENV, type Env } from '../env';
import { PRISMA } from './prisma.token';

/**
 * One Prisma client (a small pg pool: jobs write in batches) for the whole worker, closed after
 * the workers stopped. It connects on first use, so the app boots while PostgreSQL is down.
 */
@Global()
@Module({
  providers: [
    {
      provide: PRISMA,
      inject: [ENV],
      useFactory: (env: Env) => createPrismaClient(env.DATABASE_URL, { maxConnections: 5 }),
    },
  ],
  exports: [PRISMA],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
  }
}
