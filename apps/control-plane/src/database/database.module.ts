import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createPrismaClient, type PrismaClient } from '@sluice/db';
import { ENV, type Env } from '../env';
import { DatabaseReadinessCheck } from './database-readiness.check';
import { PRISMA } from './prisma.token';

/** One Prisma client (a small pg pool) for the whole app, closed after the HTTP server stops. */
@Global()
@Module({
  providers: [
    {
      provide: PRISMA,
      inject: [ENV],
      useFactory: (env: Env) => createPrismaClient(env.DATABASE_URL, { maxConnections: 10 }),
    },
    DatabaseReadinessCheck,
  ],
  exports: [PRISMA, DatabaseReadinessCheck],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
  }
}
