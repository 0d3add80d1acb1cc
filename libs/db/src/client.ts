import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export interface PrismaClientOptions {
  /** Upper bound of pooled connections (pg default is 10). */
  maxConnections?: number;
}

/** A Prisma client over node-postgres (the Rust-free client: no engine binary to download). */
export function createPrismaClient(
  databaseUrl: string,
  options: PrismaClientOptions = {},
): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
  });
  return new PrismaClient({ adapter });
}
